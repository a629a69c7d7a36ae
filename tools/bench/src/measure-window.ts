// The measured part of a run, whichever endpoint it loads: a warm-up, then the load with the CPU
// time of the processes and the database's figures around it, then the wait until the dispatcher
// has submitted every message of the window, and acceptance → submit from the database.
import { cpus } from 'node:os';
import type { Bench } from './bench-run';
import { say } from './bench-process';
import { appName, backendPids, databaseCounters, pendingParts, perAccepted, submitFigures, WaitSampler, type DatabaseCounters, type SubmitFigures } from './database-figures';
import { load, throwIfInterrupted, wasInterrupted, type LoadRequest, type LoadResult } from './http-load';
import { cpuShares, machineBusyPercent, pidsWithCommand, pidsWithEnv, sampleCpu, type CpuSample, type CpuShare } from './process-cpu';

export const WARMUP_S = 3;
export const DRAIN_TIMEOUT_S = 120;

export interface CpuFigures {
  windowS: number;
  busy: number;
  shares: CpuShare[];
}

/** What the measured window produced. */
export interface Window {
  start: Date;
  end: Date;
  result: LoadResult;
  cpu: CpuFigures;
  countersBefore: DatabaseCounters;
  countersAfter: DatabaseCounters;
  waits: WaitSampler;
}

/** The window, and how soon its messages were submitted to the carrier. */
export interface Measured {
  window: Window;
  submit: SubmitFigures;
  /** Seconds after the load until every part of the window was submitted; null: not within DRAIN_TIMEOUT_S. */
  drainedAfterS: number | null;
}

/** The load, with the CPU time of the processes and the database's figures around it. */
async function measureWindow({ run, services, db, database }: Bench, url: string, request: LoadRequest, overallRate?: number): Promise<Window> {
  const apps = pidsWithEnv('MP_BENCH_RUN', services.run).filter((p) => p.pid !== process.pid);
  const redisPids = pidsWithCommand('redis-server');
  const pgBefore = await backendPids(db, database);
  const countersBefore = await databaseCounters(db, database);
  const cpuBefore: CpuSample = sampleCpu([...apps.map((p) => p.pid), ...pgBefore, ...redisPids]);
  const benchCpuBefore = process.cpuUsage();
  const waits = new WaitSampler(db, database);
  waits.start();
  say(`measuring: ${run.connections} connections for ${run.durationS} s${overallRate === undefined ? '' : ` at ${overallRate} requests/s`}`);
  const start = new Date();
  const result = await load(url, request, run.connections, run.durationS, overallRate);
  const end = new Date();
  waits.stop();
  const pgPids = [...new Set([...pgBefore, ...(await backendPids(db, database))])];
  // pg_stat_database is updated by the backends about once a second: let the window's figures arrive.
  await new Promise((wake) => setTimeout(wake, 1_500));
  const countersAfter = await databaseCounters(db, database);
  const cpuAfter = sampleCpu([...apps.map((p) => p.pid), ...pgPids, ...redisPids]);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  throwIfInterrupted();

  const groups: Record<string, number[]> = {};
  for (const app of apps) (groups[appName(app.command)] ??= []).push(app.pid);
  groups['postgres (run)'] = pgPids;
  groups['redis-server (shared)'] = redisPids;
  const cpu = cpuFigures(cpuBefore, cpuAfter, groups, benchCpu);
  return { start, end, result, cpu, countersBefore, countersAfter, waits };
}

function cpuFigures(before: CpuSample, after: CpuSample, groups: Record<string, number[]>, benchCpu: NodeJS.CpuUsage): CpuFigures {
  const shares = cpuShares(before, after, groups);
  const windowS = (after.at - before.at) / 1000;
  shares.push({ name: 'autocannon (bench)', pids: [process.pid], percentOfOneCore: Math.round(((benchCpu.user + benchCpu.system) / 1e4 / windowS) * 10) / 10 });
  const busy = machineBusyPercent(before, after);
  // What the machine did besides this run (other people's work on a shared machine shows here).
  const ours = shares.reduce((sum, share) => sum + share.percentOfOneCore, 0);
  shares.push({ name: 'everything else', pids: [], percentOfOneCore: Math.max(0, Math.round(busy * cpus().length - ours)) });
  return { windowS, busy, shares };
}

/** The CPU cell of a README row. */
export function cpuLine({ shares, busy }: CpuFigures): string {
  const of = (name: string) => shares.find((share) => share.name === name)?.percentOfOneCore ?? 0;
  return `gw ${of('gateway')} / disp ${of('sms-dispatcher')} / sim ${of('smsc-simulator')} / pg ${of('postgres (run)')} / ac ${of('autocannon (bench)')} / other ${of('everything else')}; machine ${busy}%`;
}

/** Seconds until every part of the window was submitted after the load, or null if not within DRAIN_TIMEOUT_S. */
async function drain(db: Bench['db'], from: Date, to: Date): Promise<number | null> {
  say('waiting for the dispatcher to submit every part of the window');
  const drainStart = Date.now();
  let pending = await pendingParts(db, from, to);
  while (pending > 0 && Date.now() - drainStart < DRAIN_TIMEOUT_S * 1000 && !wasInterrupted()) {
    await new Promise((wake) => setTimeout(wake, 500));
    pending = await pendingParts(db, from, to);
  }
  return pending === 0 ? Math.round((Date.now() - drainStart) / 100) / 10 : null;
}

/** Warm-up, ANALYZE, the measured window at the run's settings (and `overallRate`, if given), the drain. */
export async function measureLoad(bench: Bench, url: string, request: LoadRequest, overallRate?: number): Promise<Measured> {
  const { run, db } = bench;
  say(`warming up for ${WARMUP_S} s`);
  await load(url, request, run.connections, WARMUP_S, overallRate);
  throwIfInterrupted();
  // A fresh database has no statistics yet, and autovacuum takes a minute to gather them: without
  // them PostgreSQL guesses that `id = ANY(…)` matches a fifth of a table and scans all of it.
  // A database in service has them, so the measured window starts with them too.
  await db.query('ANALYZE');

  const window = await measureWindow(bench, url, request, overallRate);
  const drainedAfterS = await drain(db, window.start, window.end);
  const submit = await submitFigures(db, window.start, window.end);
  return { window, submit, drainedAfterS };
}

/** The JSON file's figures of the window besides the load's: CPU per process, PostgreSQL's work. */
export function windowDetails(window: Window): object {
  return {
    cpu: { windowS: window.cpu.windowS, machineBusyPercentOfAllCores: window.cpu.busy, processes: window.cpu.shares },
    postgresPerAcceptedMessage: {
      note: 'pg_stat_database deltas over the window divided by the accepted messages; includes the dispatcher’s work on them, and a little of the second after',
      ...perAccepted(window.countersBefore, window.countersAfter, window.result['2xx']),
    },
    postgresSessions: { samples: window.waits.samples, note: 'average number of the run’s sessions in each state per sample', top: window.waits.top() },
  };
}
