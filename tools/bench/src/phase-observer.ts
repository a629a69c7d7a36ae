// What the machine did while one phase of a run ran, whichever benchmark: the CPU time of the
// run's processes, of its PostgreSQL backends and of Redis, where the run's database sessions
// waited, and the database's activity counters before and after.
import { cpus } from 'node:os';
import type { Bench } from './bench-run';
import { appName, backendPids, databaseCounters, perAccepted, WaitSampler, type DatabaseCounters } from './database-figures';
import { cpuShares, machineBusyPercent, pidsWithCommand, pidsWithEnv, sampleCpu, type CpuSample, type CpuShare } from './process-cpu';

/** The name of the benchmark's own process among the CPU shares, and its label in a README cell. */
export interface BenchProcess {
  name: string;
  label: string;
}

export const LOAD_GENERATOR: BenchProcess = { name: 'autocannon (bench)', label: 'ac' };

export interface CpuFigures {
  windowS: number;
  busy: number;
  shares: CpuShare[];
}

/** A phase: what its work returned, when it ran, and the machine's and database's figures around it. */
export interface Observed<T> {
  result: T;
  start: Date;
  end: Date;
  cpu: CpuFigures;
  countersBefore: DatabaseCounters;
  countersAfter: DatabaseCounters;
  waits: WaitSampler;
}

export interface ObserveOptions {
  benchProcess?: BenchProcess;
  /**
   * How long to wait after the work for pg_stat_database, which the backends update about once a
   * second; 0 when the next phase starts at once and must not be counted in this one.
   */
  settleMs?: number;
  /** Also sample which statements the run's active sessions run. */
  statements?: boolean;
}

/** Runs `work` with the CPU time of the run's processes and the database's figures around it. */
export async function observe<T>({ services, db, database }: Bench, work: () => Promise<T>, options: ObserveOptions = {}): Promise<Observed<T>> {
  const { benchProcess = LOAD_GENERATOR, settleMs = 1_500, statements = false } = options;
  const apps = pidsWithEnv('MP_BENCH_RUN', services.run).filter((p) => p.pid !== process.pid);
  const redisPids = pidsWithCommand('redis-server');
  const pgBefore = await backendPids(db, database);
  const countersBefore = await databaseCounters(db, database);
  const cpuBefore: CpuSample = sampleCpu([...apps.map((p) => p.pid), ...pgBefore, ...redisPids]);
  const benchCpuBefore = process.cpuUsage();
  const waits = new WaitSampler(db, database, statements);
  waits.start();
  const start = new Date();
  let result: T;
  try {
    result = await work();
  } finally {
    waits.stop();
  }
  const end = new Date();
  const pgPids = [...new Set([...pgBefore, ...(await backendPids(db, database))])];
  if (settleMs > 0) await new Promise((wake) => setTimeout(wake, settleMs));
  const countersAfter = await databaseCounters(db, database);
  const cpuAfter = sampleCpu([...apps.map((p) => p.pid), ...pgPids, ...redisPids]);
  const benchCpu = process.cpuUsage(benchCpuBefore);

  const groups: Record<string, number[]> = {};
  for (const app of apps) (groups[appName(app.command)] ??= []).push(app.pid);
  groups['postgres (run)'] = pgPids;
  groups['redis-server (shared)'] = redisPids;
  const cpu = cpuFigures(cpuBefore, cpuAfter, groups, benchCpu, benchProcess);
  return { result, start, end, cpu, countersBefore, countersAfter, waits };
}

function cpuFigures(before: CpuSample, after: CpuSample, groups: Record<string, number[]>, benchCpu: NodeJS.CpuUsage, benchProcess: BenchProcess): CpuFigures {
  const shares = cpuShares(before, after, groups);
  const windowS = (after.at - before.at) / 1000;
  shares.push({ name: benchProcess.name, pids: [process.pid], percentOfOneCore: Math.round(((benchCpu.user + benchCpu.system) / 1e4 / windowS) * 10) / 10 });
  const busy = machineBusyPercent(before, after);
  // What the machine did besides this run (other people's work on a shared machine shows here).
  const ours = shares.reduce((sum, share) => sum + share.percentOfOneCore, 0);
  shares.push({ name: 'everything else', pids: [], percentOfOneCore: Math.max(0, Math.round(busy * cpus().length - ours)) });
  return { windowS, busy, shares };
}

/** The CPU cell of a README row. */
export function cpuLine({ shares, busy }: CpuFigures, benchProcess: BenchProcess = LOAD_GENERATOR): string {
  const of = (name: string) => shares.find((share) => share.name === name)?.percentOfOneCore ?? 0;
  return `gw ${of('gateway')} / disp ${of('sms-dispatcher')} / sim ${of('smsc-simulator')} / pg ${of('postgres (run)')} / ${benchProcess.label} ${of(benchProcess.name)} / other ${of('everything else')}; machine ${busy}%`;
}

/** The JSON file's figures of a phase: CPU per process, PostgreSQL's work per message, its sessions. */
export function observedDetails(observed: Observed<unknown>, messages: number, per: string): object {
  return {
    cpu: { windowS: observed.cpu.windowS, machineBusyPercentOfAllCores: observed.cpu.busy, processes: observed.cpu.shares },
    postgresPerAcceptedMessage: {
      note: `pg_stat_database deltas over the window divided by ${per}`,
      ...perAccepted(observed.countersBefore, observed.countersAfter, messages),
    },
    postgresSessions: { samples: observed.waits.samples, note: 'average number of the run’s sessions in each state per sample', top: observed.waits.top() },
    ...(observed.waits.statements.size > 0 ? { postgresStatements: { note: 'average number of the run’s active sessions running each statement per sample', top: observed.waits.topStatements() } } : {}),
  };
}
