// What a message costs: the CPU milliseconds each process of the run spent per message over the
// measured window, from the kernel's own count (utime + stime of /proc/<pid>/stat), read before
// and after the window. On a shared machine this is steadier than throughput: another engineer's
// load slows the run, but does not make a message cost more of the run's own processes.
//
// The run's apps are counted process by process (their own time). PostgreSQL and Redis are
// counted as the server the run talks to: the server process, its live children (PostgreSQL's
// backends, checkpointer, WAL writer, …) and the children it reaped during the window (cutime +
// cstime), less the backends seen serving another database (other people's tests) or the
// benchmark's own session.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** The CPU counters of one process, in clock ticks, and its parent. */
export interface ProcStat {
  pid: number;
  ppid: number;
  /** Its own time in user and kernel mode. */
  utime: number;
  stime: number;
  /** The time of its children it has waited for (ended during its life). */
  cutime: number;
  cstime: number;
}

/** A server counted with its children: its process, and pids to leave out (others' sessions). */
export interface ServerGroup {
  /** null: the server does not run on this machine, or could not be found. */
  root: number | null;
  exclude?: readonly number[];
}

/** What a window's cost is made of: each app by its pids, each server by its process tree. */
export interface CostGroups {
  apps: Record<string, readonly number[]>;
  servers: Record<string, ServerGroup>;
}

/** Every process read at one moment: the groups' pids, their servers' children. */
export interface CostSample {
  at: number;
  stats: Map<number, ProcStat>;
}

/** CPU ms per message of each group, and their sum (null: a group that could not be read). */
export interface CostPerMessage {
  messages: number;
  windowS: number;
  processes: Record<string, number | null>;
  totalMs: number;
}

/** A line of /proc/<pid>/stat; undefined when it is not one. */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open < 0 || close < open) return undefined;
  // The command (field 2) may hold spaces and parentheses: the fields after its last `)` start at 3.
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const field = (n: number) => Number(fields[n - 3]);
  const stat = { pid: Number(text.slice(0, open).trim()), ppid: field(4), utime: field(14), stime: field(15), cutime: field(16), cstime: field(17) };
  return Object.values(stat).every(Number.isInteger) ? stat : undefined;
}

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ). */
export const TICKS_PER_SECOND = ((): number => {
  try {
    const value = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(value) && value > 0 ? value : 100;
  } catch {
    return 100;
  }
})();

function readStat(pid: number | string): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process on the machine whose parent is one of `parents`. */
function childrenOf(parents: ReadonlySet<number>): ProcStat[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    const stat = readStat(entry);
    return stat && parents.has(stat.ppid) ? [stat] : [];
  });
}

/** Reads the groups' processes and their servers' children now. */
export function sampleCost(groups: CostGroups): CostSample {
  const stats = new Map<number, ProcStat>();
  const roots = new Set(Object.values(groups.servers).flatMap((server) => (server.root === null ? [] : [server.root])));
  for (const pid of [...Object.values(groups.apps).flat(), ...roots]) {
    const stat = readStat(pid);
    if (stat) stats.set(pid, stat);
  }
  if (roots.size > 0) for (const child of childrenOf(roots)) stats.set(child.pid, child);
  return { at: Date.now(), stats };
}

const own = (stat: ProcStat | undefined) => (stat ? stat.utime + stat.stime : 0);
const withReaped = (stat: ProcStat | undefined) => (stat ? stat.utime + stat.stime + stat.cutime + stat.cstime : 0);

/** A server's ticks at one sample: its process and children, with the children they reaped; undefined without its process. */
function serverTicks(sample: CostSample, root: number): number | undefined {
  const server = sample.stats.get(root);
  if (!server) return undefined;
  let ticks = withReaped(server);
  for (const stat of sample.stats.values()) if (stat.ppid === root && stat.pid !== root) ticks += withReaped(stat);
  return ticks;
}

/**
 * The ticks of the excluded processes over the window. One alive at the end counts from its start
 * value (0 when it started during the window); one that ended during the window is left in, as
 * its last ticks are not known (the server's reaped time has them).
 */
function excludedTicks(before: CostSample, after: CostSample, exclude: readonly number[]): number {
  let ticks = 0;
  for (const pid of new Set(exclude)) {
    const end = after.stats.get(pid);
    if (end) ticks += withReaped(end) - withReaped(before.stats.get(pid));
  }
  return ticks;
}

/** CPU ms of each group between two samples; null for a server missing from either. */
export function costBetween(before: CostSample, after: CostSample, groups: CostGroups, ticksPerSecond = TICKS_PER_SECOND): Record<string, number | null> {
  const ms = (ticks: number) => (ticks * 1000) / ticksPerSecond;
  const cost: Record<string, number | null> = {};
  for (const [name, pids] of Object.entries(groups.apps)) {
    // An app that started during the window counts from zero; one that ended is left out.
    cost[name] = ms(pids.reduce((sum, pid) => (after.stats.has(pid) ? sum + own(after.stats.get(pid)) - own(before.stats.get(pid)) : sum), 0));
  }
  for (const [name, { root, exclude = [] }] of Object.entries(groups.servers)) {
    const start = root === null ? undefined : serverTicks(before, root);
    const end = root === null ? undefined : serverTicks(after, root);
    cost[name] = start === undefined || end === undefined ? null : ms(end - start - excludedTicks(before, after, exclude));
  }
  return cost;
}

/** The path of a message first (gateway, dispatcher, simulator), the other apps by name, then the servers. */
const FIRST = ['gateway', 'sms-dispatcher', 'smsc-simulator'];
const LAST = ['postgres', 'redis'];

function inOrder<T>(groups: Record<string, T>): [string, T][] {
  const rank = (name: string) => (FIRST.includes(name) ? FIRST.indexOf(name) : LAST.includes(name) ? 100 + LAST.indexOf(name) : 50);
  return Object.entries(groups).sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The CPU ms of each group divided by the window's messages, to the microsecond. */
export function perMessage(costMs: Record<string, number | null>, messages: number, windowS: number): CostPerMessage | null {
  if (messages <= 0) return null;
  const round = (value: number) => Math.round(value * 1000) / 1000;
  const processes = Object.fromEntries(inOrder(costMs).map(([name, ms]) => [name, ms === null ? null : round(ms / messages)]));
  const total = Object.values(costMs).reduce<number>((sum, ms) => sum + (ms ?? 0), 0);
  return { messages, windowS: round(windowS), processes, totalMs: round(total / messages) };
}

/** How a cell names each process. */
const SHORT: Readonly<Record<string, string>> = {
  gateway: 'gw',
  'sms-dispatcher': 'disp',
  'smsc-simulator': 'sim',
  postgres: 'pg',
  redis: 'redis',
};

/** `1.52 (gw 0.41, disp 0.33, sim 0.12, dev-stack 0.02, pg 0.55, redis 0.09)`; `—` without a figure. */
export function costCell(cost: CostPerMessage | null | undefined): string {
  if (!cost) return '—';
  const parts = inOrder(cost.processes).map(([name, ms]) => `${SHORT[name] ?? name} ${ms === null ? '—' : ms.toFixed(2)}`);
  return `${cost.totalMs.toFixed(2)} (${parts.join(', ')})`;
}
