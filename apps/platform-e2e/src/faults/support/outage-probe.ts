// Requests a fault test makes over and over while a dependency is down and after it is back:
// what the API answered then (503, never a 500, never a hang) and when it served again.
import type { ApiClient } from '../../support/api-client';
import { sleep, type AttemptLog } from './load';
import { CLIENT_TIMEOUT_MS } from './load';

export interface ProbeRequest {
  path: string;
  /** What the answers are logged under (default the path). */
  label?: string;
  api: ApiClient;
  body: (i: number) => Record<string, unknown>;
  headers?: () => Record<string, string>;
  /** Called with each answer 200 (e.g. to count a message the probe sent as accepted). */
  onSuccess?: (body: Record<string, unknown>, i: number) => void;
}

export interface RunningProbe {
  /** Stops once the current round has answered. */
  stop(): Promise<void>;
}

/** Sends each request in turn every `everyMs`, each with the load's client timeout, recording every answer in `log`. */
export function startProbe(log: AttemptLog, requests: ProbeRequest[], everyMs: number): RunningProbe {
  let stopped = false;
  const loop = (async () => {
    for (let i = 0; !stopped; i++) {
      await Promise.all(
        requests.map(async (request) => {
          const answer = await log.call(request.label ?? request.path, () =>
            request.api.post<Record<string, unknown>>(request.path, request.body(i), {
              headers: request.headers?.(),
              signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
            }),
          );
          if (typeof answer === 'object' && answer.status === 200) request.onSuccess?.(answer.body, i);
        }),
      );
      await sleep(everyMs);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

/** Answers of one path between two moments, by outcome. */
export function answersOf(log: AttemptLog, path: string, from: number, to: number): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of log.attempts) if (a.path === path && a.at >= from && a.at <= to) counts[String(a.outcome)] = (counts[String(a.outcome)] ?? 0) + 1;
  return counts;
}

/** The first answer 200 of a path at or after `from`. */
export function firstSuccess(log: AttemptLog, path: string, from: number): number | undefined {
  return log.attempts.find((a) => a.path === path && a.at >= from && a.outcome === 200)?.at;
}
