// The HTTP load of a benchmark: autocannon keeping connections busy against the gateway, as one
// company, and Ctrl-C, which stops the load under way and lets the benchmark clean up.
import autocannon from 'autocannon';
import { pacedLoad } from './paced-load';
import type { LoadRequest, LoadResult } from './load-request';
import { jsonRequestHeaders } from './request-headers';

export type { AnswerTimes, Company, LoadRequest, LoadResult } from './load-request';

/** +33 6 1x xx xx xx: ten million valid French mobile numbers, a different one per request. */
export function numbers(): () => string {
  let next = 0;
  return () => `+3361${String(next++ % 10_000_000).padStart(7, '0')}`;
}

let running: autocannon.Instance | undefined;
let interrupted = false;

/** From now on Ctrl-C stops the load under way and marks the run interrupted; returns the undo. */
export function stopLoadOnInterrupt(): () => void {
  const onInterrupt = () => {
    interrupted = true;
    running?.stop();
  };
  process.once('SIGINT', onInterrupt);
  return () => {
    process.off('SIGINT', onInterrupt);
  };
}

export function wasInterrupted(): boolean {
  return interrupted;
}

export function throwIfInterrupted(): void {
  if (interrupted) throw new Error('interrupted');
}

/**
 * `connections` connections for `durationS` seconds: each as busy as it can be, or, with
 * `overallRate`, that many requests per second over all connections together.
 *
 * At a fixed rate autocannon gives each connection its share of the rate per second (a counter it
 * resets every second, on timers started together), so the requests of each second leave in a
 * burst at its start, up to one per connection at a time. Its correction for coordinated omission
 * is off: it takes 1/rate for the expected interval in milliseconds when the rate is per second,
 * which would add a sample every millisecond below each slow answer and pull the percentiles down.
 */
/**
 * The load of a benchmark: closed-loop autocannon, each connection sending again as soon as it is
 * answered (the most the service takes), or, with `overallRate`, an evenly paced open-loop load
 * (paced-load.ts) whose latency counts from when each request was due.
 */
export function load(url: string, request: LoadRequest, connections: number, durationS: number, overallRate?: number): Promise<LoadResult> {
  if (overallRate !== undefined) {
    const stop = { stopped: false };
    running = { stop: () => (stop.stopped = true) } as unknown as autocannon.Instance;
    return pacedLoad(url, request, connections, durationS, overallRate, stop).finally(() => (running = undefined));
  }
  return closedLoop(url, request, connections, durationS);
}

function closedLoop(url: string, request: LoadRequest, connections: number, durationS: number): Promise<LoadResult> {
  const { company, path, body } = request;
  return new Promise((resolve, reject) => {
    running = autocannon(
      {
        url,
        connections,
        duration: durationS,
        requests: [
          {
            method: 'POST',
            path,
            headers: jsonRequestHeaders(company),
            setupRequest: (next) => ({ ...next, body: JSON.stringify(body()) }),
          },
        ],
      },
      (error, result) => {
        running = undefined;
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
  });
}
