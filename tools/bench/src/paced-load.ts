// An open-loop load at a fixed rate, evenly spread: request i leaves at start + i/rate, whatever
// the answers before it did, over at most `connections` keep-alive connections. Latency counts
// from the moment a request was due, so a stalled server shows in the figures instead of slowing
// the load (no coordinated omission). autocannon's fixed rate sends each second's requests in a
// burst at its start, which measures the burst, not the service.
//
// The requests go through KeepAliveClient (see there why not undici or node:http), and the load
// wakes when the next request is due, not every millisecond.
import type { AnswerTimes, LoadRequest, LoadResult } from './load-request';
import { jsonRequestHeaders } from './request-headers';
import { KeepAliveClient, RequestFailed } from './keep-alive-client';

const TIMEOUT_MS = 10_000;

interface Tally {
  latencies: number[];
  /** Of each 2xx answer, in the order of `latencies`: ms after the load's start that its request was due. */
  dues: number[];
  statusCodes: Map<number, number>;
  errors: number;
  timeouts: number;
}

export function pacedLoad(
  url: string,
  load: LoadRequest,
  connections: number,
  durationS: number,
  rate: number,
  stop: { stopped: boolean },
): Promise<LoadResult> {
  const client = new KeepAliveClient(url, load.path, jsonRequestHeaders(load.company), connections, TIMEOUT_MS);
  const tally: Tally = { latencies: [], dues: [], statusCodes: new Map(), errors: 0, timeouts: 0 };
  const total = Math.round(rate * durationS);
  const start = performance.now();
  const dueAt = (i: number) => start + (i * 1000) / rate;
  let sent = 0;
  let answered = 0;
  return new Promise((resolve) => {
    const finish = () => {
      client.destroy();
      resolve(resultOf(tally, (performance.now() - start) / 1000, sent, performance.timeOrigin + start));
    };
    const settled = () => {
      if (++answered === sent && (sent === total || stop.stopped)) finish();
    };
    const fire = (due: number) => {
      client.post(JSON.stringify(load.body())).then(
        (statusCode) => {
          tally.statusCodes.set(statusCode, (tally.statusCodes.get(statusCode) ?? 0) + 1);
          if (statusCode < 300) {
            tally.latencies.push(performance.now() - due);
            tally.dues.push(due - start);
          }
          settled();
        },
        (error: unknown) => {
          if (error instanceof RequestFailed && error.reason === 'timeout') tally.timeouts += 1;
          else tally.errors += 1;
          settled();
        },
      );
    };
    const tick = () => {
      const now = performance.now();
      const due = stop.stopped ? sent : Math.min(total, Math.floor(((now - start) / 1000) * rate) + 1);
      while (sent < due) fire(dueAt(sent++));
      if (sent < total && !stop.stopped) setTimeout(tick, Math.max(1, Math.floor(dueAt(sent) - performance.now())));
      else if (answered === sent) finish();
    };
    tick();
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const ms = (value: number) => Math.round(value * 10) / 10;

/** p50, p99, p99.9, max and mean of latencies in ms, to one decimal; 0 without any. */
export function latencySummary(latencies: readonly number[]): LoadResult['latency'] {
  const sorted = [...latencies].sort((a, b) => a - b);
  const summary = {
    p50: ms(percentile(sorted, 50)),
    p99: ms(percentile(sorted, 99)),
    p99_9: ms(percentile(sorted, 99.9)),
    max: ms(sorted[sorted.length - 1] ?? 0),
    mean: ms(sorted.length === 0 ? 0 : sorted.reduce((sum, v) => sum + v, 0) / sorted.length),
  };
  return summary as LoadResult['latency'];
}

/** The 2xx answers to the requests due before `untilEpochMs`: how many, and their latency. */
export function answeredBefore(times: AnswerTimes, untilEpochMs: number): { accepted: number; latency: LoadResult['latency'] } {
  const cutMs = untilEpochMs - times.startedAtEpochMs;
  const latencies = times.latencyMs.filter((_, i) => times.dueMs[i] < cutMs);
  return { accepted: latencies.length, latency: latencySummary(latencies) };
}

/** The figures the benchmarks read from autocannon's result, from this load's tally. */
function resultOf(tally: Tally, durationS: number, sent: number, startedAtEpochMs: number): LoadResult {
  const ok = tally.latencies.length;
  const non2xx = [...tally.statusCodes].filter(([code]) => code < 200 || code >= 300).reduce((sum, [, n]) => sum + n, 0);
  const result = {
    duration: Math.round(durationS * 100) / 100,
    requests: { total: sent },
    '2xx': ok,
    non2xx,
    errors: tally.errors,
    timeouts: tally.timeouts,
    statusCodeStats: Object.fromEntries([...tally.statusCodes].map(([code, count]) => [String(code), { count }])),
    latency: latencySummary(tally.latencies),
    answerTimes: { startedAtEpochMs, dueMs: tally.dues, latencyMs: tally.latencies },
  };
  return result as unknown as LoadResult;
}
