// What the machine did while one phase of a run ran, whichever benchmark: the CPU time of the
// run's processes, of its PostgreSQL backends and of Redis (as shares of a core, and as the cost of
// the phase's messages: process-cost.ts), where the run's database sessions waited, and the
// database's activity counters before and after.
import { cpus } from 'node:os';
import type { Bench } from './bench-run';
import { appName, backendPids, databaseCounters, perAccepted, WaitSampler, type DatabaseCounters } from './database-figures';
import { costBetween, perMessage, sampleCost, type CostGroups, type CostPerMessage } from './process-cost';
import { cpuShares, machineBusyPercent, pidsWithCommand, pidsWithEnv, sampleCpu, type ContextSwitches, type CpuSample, type CpuShare } from './process-cpu';
import { othersBackends } from './server-processes';

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

/** The CPU ms each process group spent over a phase: its apps, PostgreSQL and Redis (process-cost.ts). */
export interface PhaseCost {
  windowS: number;
  ms: Record<string, number | null>;
}

/** A phase: what its work returned, when it ran, and the machine's and database's figures around it. */
export interface Observed<T> {
  result: T;
  start: Date;
  end: Date;
  cpu: CpuFigures;
  cost: PhaseCost;
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
export async function observe<T>({ services, db, database, servers }: Bench, work: () => Promise<T>, options: ObserveOptions = {}): Promise<Observed<T>> {
  const { benchProcess = LOAD_GENERATOR, settleMs = 1_500, statements = false } = options;
  const apps = pidsWithEnv('MP_BENCH_RUN', services.run).filter((p) => p.pid !== process.pid);
  const appGroups: Record<string, number[]> = {};
  for (const app of apps) (appGroups[appName(app.command)] ??= []).push(app.pid);
  const costGroups = (exclude: number[]): CostGroups => ({
    apps: appGroups,
    servers: { postgres: { root: servers.postgres, exclude }, redis: { root: servers.redis } },
  });
  const redisPids = pidsWithCommand('redis-server');
  const pgBefore = await backendPids(db, database);
  const countersBefore = await databaseCounters(db, database);
  const othersBefore = await othersBackends(db, database);
  const costBefore = sampleCost(costGroups([]));
  const cpuBefore: CpuSample = sampleCpu([...apps.map((p) => p.pid), ...pgBefore, ...redisPids]);
  const benchCpuBefore = process.cpuUsage();
  const benchSwitchesBefore = ownSwitches();
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
  const costAfter = sampleCost(costGroups([]));
  const othersAfter = await othersBackends(db, database);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  const benchSwitchesAfter = ownSwitches();
  const benchSwitches = {
    voluntary: benchSwitchesAfter.voluntary - benchSwitchesBefore.voluntary,
    involuntary: benchSwitchesAfter.involuntary - benchSwitchesBefore.involuntary,
  };

  const groups: Record<string, number[]> = { ...appGroups };
  groups['postgres (run)'] = pgPids;
  groups['redis-server (shared)'] = redisPids;
  const cpu = cpuFigures(cpuBefore, cpuAfter, groups, { cpu: benchCpu, switches: benchSwitches }, benchProcess);
  const cost = { windowS: (costAfter.at - costBefore.at) / 1000, ms: costBetween(costBefore, costAfter, costGroups([...othersBefore, ...othersAfter])) };
  return { result, start, end, cpu, cost, countersBefore, countersAfter, waits };
}

/** This process's context switches so far (getrusage: all its threads). */
function ownSwitches(): ContextSwitches {
  const usage = process.resourceUsage();
  return { voluntary: usage.voluntaryContextSwitches, involuntary: usage.involuntaryContextSwitches };
}

function cpuFigures(
  before: CpuSample,
  after: CpuSample,
  groups: Record<string, number[]>,
  bench: { cpu: NodeJS.CpuUsage; switches: ContextSwitches },
  benchProcess: BenchProcess,
): CpuFigures {
  const shares = cpuShares(before, after, groups);
  const windowS = (after.at - before.at) / 1000;
  const benchPercent = Math.round(((bench.cpu.user + bench.cpu.system) / 1e4 / windowS) * 10) / 10;
  shares.push({ name: benchProcess.name, pids: [process.pid], percentOfOneCore: benchPercent, contextSwitches: bench.switches });
  const busy = machineBusyPercent(before, after);
  // What the machine did besides this run (other people's work on a shared machine shows here).
  const ours = shares.reduce((sum, share) => sum + share.percentOfOneCore, 0);
  shares.push({ name: 'everything else', pids: [], percentOfOneCore: Math.max(0, Math.round(busy * cpus().length - ours)) });
  return { windowS, busy, shares };
}

/** How the stdout lines and README cells name the run's processes. */
const SHORT_NAMES: Readonly<Record<string, string>> = {
  gateway: 'gw',
  'sms-dispatcher': 'disp',
  'smsc-simulator': 'sim',
  'postgres (run)': 'pg',
  'redis-server (shared)': 'redis',
};

/** The CPU cell of a README row. */
export function cpuLine({ shares, busy }: CpuFigures, benchProcess: BenchProcess = LOAD_GENERATOR): string {
  const of = (name: string) => shares.find((share) => share.name === name)?.percentOfOneCore ?? 0;
  const cell = (name: string) => `${SHORT_NAMES[name]} ${of(name)}`;
  return `${['gateway', 'sms-dispatcher', 'smsc-simulator', 'postgres (run)'].map(cell).join(' / ')} / ${benchProcess.label} ${of(benchProcess.name)} / other ${of('everything else')}; machine ${busy}%`;
}

/** How much a group used per item of a phase's work: what each costs, whatever the rate. */
export interface PerItem {
  name: string;
  cpuMs: number;
  /** Context switches (voluntary + involuntary); null where they were not read. */
  contextSwitches: number | null;
}

/** Each process group's CPU time and context switches over the window, divided by `items`. */
export function perItem({ shares, windowS }: CpuFigures, items: number): PerItem[] {
  if (items <= 0) return [];
  return shares
    .filter((share) => share.pids.length > 0)
    .map((share) => ({
      name: share.name,
      cpuMs: round3(((share.percentOfOneCore / 100) * windowS * 1000) / items),
      contextSwitches: share.contextSwitches ? round3((share.contextSwitches.voluntary + share.contextSwitches.involuntary) / items) : null,
    }));
}

/** The stdout line of perItem: `per <item>, CPU ms: gw 0.3 / …; context switches: gw 0.4 / …`. */
export function perItemLine(costs: readonly PerItem[], item: string, benchProcess: BenchProcess = LOAD_GENERATOR): string {
  const label = (name: string) => (name === benchProcess.name ? benchProcess.label : (SHORT_NAMES[name] ?? name));
  const cpu = costs.map((c) => `${label(c.name)} ${c.cpuMs.toFixed(2)}`).join(' / ');
  const switches = costs.map((c) => `${label(c.name)} ${c.contextSwitches === null ? '—' : c.contextSwitches.toFixed(1)}`).join(' / ');
  return `per ${item}, CPU ms: ${cpu}; context switches: ${switches}`;
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** The CPU ms each process group spent on a message of the phase, and their sum. */
export function phaseCost({ cost }: Pick<Observed<unknown>, 'cost'>, messages: number): CostPerMessage | null {
  return perMessage(cost.ms, messages, cost.windowS);
}

/** Phases one after the other as one: their CPU ms added up, group by group (null if null in any). */
export function sumCosts(costs: readonly PhaseCost[]): PhaseCost {
  const ms: Record<string, number | null> = {};
  for (const cost of costs) {
    for (const [name, value] of Object.entries(cost.ms)) ms[name] = name in ms && ms[name] === null ? null : value === null ? null : (ms[name] ?? 0) + value;
  }
  return { windowS: costs.reduce((sum, cost) => sum + cost.windowS, 0), ms };
}

/** How the JSON file explains cpuMsPerMessage. */
export const COST_NOTE =
  'CPU ms (utime + stime of /proc/<pid>/stat) over the window, divided by the messages: each app of the run by its own process; postgres: the whole server (the postmaster, its live children and those it reaped), less the backends seen serving another database or the benchmark at the window’s ends (others’ sessions that start and end inside the window still count); redis: the whole server, shared with whatever else uses it; null: the server is not on this machine.';

/** The JSON file's figures of a phase: CPU per process, PostgreSQL's work per message, its sessions. */
export function observedDetails(observed: Observed<unknown>, messages: number, per: string): object {
  return {
    cpuMsPerMessage: { note: `${COST_NOTE} Messages: ${per}.`, ...phaseCost(observed, messages) },
    cpu: {
      windowS: observed.cpu.windowS,
      machineBusyPercentOfAllCores: observed.cpu.busy,
      processes: observed.cpu.shares,
      perAcceptedMessage: { note: `CPU time and context switches over the window divided by ${per}`, groups: perItem(observed.cpu, messages) },
    },
    postgresPerAcceptedMessage: {
      note: `pg_stat_database deltas over the window divided by ${per}`,
      ...perAccepted(observed.countersBefore, observed.countersAfter, messages),
    },
    postgresSessions: { samples: observed.waits.samples, note: 'average number of the run’s sessions in each state per sample', top: observed.waits.top() },
    ...(observed.waits.statements.size > 0
      ? { postgresStatements: { note: 'average number of the run’s active sessions running each statement per sample', top: observed.waits.topStatements() } }
      : {}),
  };
}
