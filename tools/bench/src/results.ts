// What every benchmark's run reports the same way: the commit and the machine it measured, and
// the figures of an HTTP load.
import { execFileSync } from 'node:child_process';
import { cpus, release, totalmem } from 'node:os';
import type { SubmitFigures } from './database-figures';
import type { LoadResult } from './http-load';
import type { ArrivalFigures } from './simulator-arrivals';

export interface Revision {
  commit: string;
  /** Uncommitted changes (outside bench/results) were in the tree that was measured. */
  dirty: boolean;
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  postgres: string;
  redis: string;
}

/** messages.created_at → message_parts.submitted_at, over the messages accepted in the window. */
export interface SubmitBlock {
  samples: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  notSubmittedAtEnd: number;
  drainedAfterS: number | null;
}

/** What a load did, as autocannon counted it, and how soon its messages reached the carrier. */
export interface LoadFigures {
  durationS: number;
  connections: number;
  requests: number;
  accepted: number;
  acceptedPerSecond: number;
  latencyMs: { p50: number; p99: number; p999: number; max: number; mean: number };
  non2xx: number;
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  submit: SubmitBlock;
  /** messages.created_at → the message's arrival at the SMSC simulator; null: the simulator could not be read. */
  atSimulator: ArrivalFigures | null;
}

export function loadFigures(
  result: LoadResult,
  connections: number,
  submit: SubmitFigures,
  drainedAfterS: number | null,
  atSimulator: ArrivalFigures | null,
): LoadFigures {
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  return {
    durationS: result.duration,
    connections,
    requests: result.requests.total,
    accepted: result['2xx'],
    acceptedPerSecond: Math.round(result['2xx'] / result.duration),
    latencyMs: { p50: result.latency.p50, p99: result.latency.p99, p999: result.latency.p99_9, max: result.latency.max, mean: result.latency.mean },
    non2xx: result.non2xx,
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
    submit: { samples: submit.samples, p50Ms: submit.p50Ms, p99Ms: submit.p99Ms, maxMs: submit.maxMs, notSubmittedAtEnd: submit.pending, drainedAfterS },
    atSimulator,
  };
}

/** Every message of the window reached the simulator, within `p99Ms` at p99. */
export function arrivalMet(atSimulator: ArrivalFigures | null, p99Ms: number): boolean {
  return (
    atSimulator !== null && atSimulator.messages > 0 && atSimulator.arrived === atSimulator.messages && atSimulator.p99Ms !== null && atSimulator.p99Ms <= p99Ms
  );
}

/** Every part of the window submitted, within `p99Ms` at p99. */
export function submitMet(submit: SubmitBlock, p99Ms: number): boolean {
  return submit.p99Ms !== null && submit.notSubmittedAtEnd === 0 && submit.p99Ms <= p99Ms;
}

export function revision(root: string): Revision {
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    const commit = git('rev-parse', '--short', 'HEAD');
    const changes = git('status', '--porcelain', '--', '.', ':(exclude)bench/results');
    return { commit, dirty: changes.length > 0 };
  } catch {
    return { commit: 'unknown', dirty: true };
  }
}

export function machine(postgres: string, redis: string): Machine {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    kernel: release(),
    node: process.version,
    postgres,
    redis,
  };
}

export function describeMachine(host: Machine): string {
  return `${host.cores} × ${host.cpu}, ${host.memoryGiB} GiB, Linux ${host.kernel}, Node ${host.node}, ${host.postgres}, Redis ${host.redis}`;
}

/** `2026-11-22T02-35-02Z`: the ISO date and time, fit for a file name. */
export function fileStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

export const fmt = (value: number | null, digits = 0): string => (value === null ? '—' : value.toFixed(digits));

/** The stdout line of the acceptance → submit figures. */
export function submitLine(submit: SubmitBlock, drainTimeoutS: number): string {
  const backlog =
    submit.drainedAfterS === null
      ? `${submit.notSubmittedAtEnd} parts still pending after ${drainTimeoutS} s`
      : `backlog drained ${submit.drainedAfterS} s after the load`;
  return `  acceptance → submit ms: p50 ${submit.p50Ms}, p99 ${submit.p99Ms}, max ${submit.maxMs} over ${submit.samples} parts; ${backlog}`;
}

/** The stdout line of the acceptance → arrival at the simulator figures. */
export function arrivalLine(atSimulator: ArrivalFigures | null): string {
  if (atSimulator === null) return '  acceptance → at the simulator: its inspection API could not be read';
  const missing = atSimulator.messages - atSimulator.arrived;
  const notThere = missing > 0 ? ` (${missing} of ${atSimulator.messages} not there)` : '';
  return `  acceptance → at the simulator ms: p50 ${atSimulator.p50Ms}, p99 ${atSimulator.p99Ms}, max ${atSimulator.maxMs} over ${atSimulator.arrived} messages${notThere}`;
}
