// The measured part of a run, whichever endpoint it loads: a warm-up, then the load with the CPU
// time of the processes and the database's figures around it, then the wait until the dispatcher
// has submitted every message of the window, and acceptance → submit from the database and
// acceptance → arrival at the simulator.
import type { Bench } from './bench-run';
import { say } from './bench-process';
import { pendingParts, submitFigures, type SubmitFigures } from './database-figures';
import { load, throwIfInterrupted, wasInterrupted, type LoadRequest, type LoadResult } from './http-load';
import { observe, observedDetails, type Observed } from './phase-observer';
import { arrivalFigures, type ArrivalFigures } from './simulator-arrivals';

/** V8 is still compiling the hot paths early in a load (bench/results/README.md says how long). */
export const WARMUP_S = 10;
export const DRAIN_TIMEOUT_S = 120;

/** What the measured window produced. */
export type Window = Observed<LoadResult>;

/** The window, and how soon its messages were submitted to the carrier. */
export interface Measured {
  window: Window;
  submit: SubmitFigures;
  /** Acceptance → arrival at the SMSC simulator, for every message of the window; null: the simulator could not be read. */
  atSimulator: ArrivalFigures | null;
  /** Seconds after the load until every part of the window was submitted; null: not within DRAIN_TIMEOUT_S. */
  drainedAfterS: number | null;
}

/** How a load is measured: at a fixed rate or as fast as answered; whose messages count. */
export interface LoadOptions {
  /** Requests per second over all connections (paced); none: closed loop. */
  overallRate?: number;
  /** Only this company's messages count for acceptance → submit and the drain (others may be sending). */
  companyId?: string;
}

/** The load, with the CPU time of the processes and the database's figures around it. */
async function measureWindow(bench: Bench, url: string, request: LoadRequest, { overallRate }: LoadOptions): Promise<Window> {
  const { run } = bench;
  say(`measuring: ${run.connections} connections for ${run.durationS} s${overallRate === undefined ? '' : ` at ${overallRate} requests/s`}`);
  const window = await observe(bench, () => load(url, request, run.connections, run.durationS, overallRate));
  throwIfInterrupted();
  return window;
}

/** Seconds until every part of the window was submitted after the load, or null if not within DRAIN_TIMEOUT_S. */
async function drain(db: Bench['db'], from: Date, to: Date, companyId?: string): Promise<number | null> {
  say('waiting for the dispatcher to submit every part of the window');
  const drainStart = Date.now();
  let pending = await pendingParts(db, from, to, companyId);
  while (pending > 0 && Date.now() - drainStart < DRAIN_TIMEOUT_S * 1000 && !wasInterrupted()) {
    await new Promise((wake) => setTimeout(wake, 500));
    pending = await pendingParts(db, from, to, companyId);
  }
  return pending === 0 ? Math.round((Date.now() - drainStart) / 100) / 10 : null;
}

/** Warm-up, ANALYZE, then the measured window and its drain (measureWarm). */
export async function measureLoad(bench: Bench, url: string, request: LoadRequest, options: LoadOptions = {}): Promise<Measured> {
  const { run, db } = bench;
  say(`warming up for ${WARMUP_S} s`);
  await load(url, request, run.connections, WARMUP_S, options.overallRate);
  throwIfInterrupted();
  // A fresh database has no statistics yet, and autovacuum takes a minute to gather them: without
  // them PostgreSQL guesses that `id = ANY(…)` matches a fifth of a table and scans all of it.
  // A database in service has them, so the measured window starts with them too.
  await db.query('ANALYZE');
  return measureWarm(bench, url, request, options);
}

/** On a stack already warm: the measured window at the run's settings, the drain, acceptance → submit. */
export async function measureWarm(bench: Bench, url: string, request: LoadRequest, options: LoadOptions = {}): Promise<Measured> {
  const { db } = bench;
  const window = await measureWindow(bench, url, request, options);
  const drainedAfterS = await drain(db, window.start, window.end, options.companyId);
  const submit = await submitFigures(db, window.start, window.end, options.companyId);
  const atSimulator = await arrivalFigures(db, bench.simulatorUrl, window.start, window.end, options.companyId);
  return { window, submit, atSimulator, drainedAfterS };
}

/** The JSON file's figures of the window besides the load's: CPU per process, PostgreSQL's work. */
export function windowDetails(window: Window): object {
  return observedDetails(window, window.result['2xx'], 'the accepted messages; includes the dispatcher’s work on them, and a little of the second after');
}
