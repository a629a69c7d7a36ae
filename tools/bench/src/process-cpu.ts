// Where the CPU went during a run: the CPU time and context switches of each process, read from
// /proc (Linux) before and after the measured window, as `ps` would show them but exact over the
// window.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

export interface CpuSample {
  at: number;
  /** pid → CPU ticks (user + system) used so far. */
  ticks: Map<number, number>;
  /** pid → context switches of all its threads so far. */
  switches?: Map<number, ContextSwitches>;
  /** Whole machine: busy and total ticks over all cores, from /proc/stat. */
  machine: { busy: number; total: number };
}

/**
 * A voluntary switch is a thread going to sleep to wait (for a socket, a timer, a lock), so it
 * counts the wake-ups that follow; an involuntary one is a thread preempted while it could run.
 * On a virtual machine where a wake-up is dear, these count as much as the CPU time.
 */
export interface ContextSwitches {
  voluntary: number;
  involuntary: number;
}

export interface CpuShare {
  name: string;
  pids: number[];
  /** Percent of one core over the window (200 = both cores of a 2-core machine). */
  percentOfOneCore: number;
  /** Over the window, of all the group's threads; absent where they could not be read. */
  contextSwitches?: ContextSwitches;
}

/** CPU ticks a process has used, or undefined when it is gone. */
export function processTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces: count fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15 of stat)
  } catch {
    return undefined;
  }
}

/** Context switches of all a process's threads so far, or undefined when it is gone. */
export function processSwitches(pid: number): ContextSwitches | undefined {
  const total: ContextSwitches = { voluntary: 0, involuntary: 0 };
  const threads = safeReaddir(`/proc/${pid}/task`);
  if (threads.length === 0) return undefined;
  for (const thread of threads) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${thread}/status`, 'utf8');
      total.voluntary += Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      total.involuntary += Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0);
    } catch {
      // the thread ended
    }
  }
  return total;
}

function machineTicks(): { busy: number; total: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((sum, value) => sum + value, 0);
    const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

export function sampleCpu(pids: readonly number[]): CpuSample {
  const ticks = new Map<number, number>();
  const switches = new Map<number, ContextSwitches>();
  for (const pid of pids) {
    const value = processTicks(pid);
    if (value !== undefined) ticks.set(pid, value);
    const switched = processSwitches(pid);
    if (switched !== undefined) switches.set(pid, switched);
  }
  return { at: Date.now(), ticks, switches, machine: machineTicks() };
}

/**
 * Percent of one core each group of processes used between two samples, and the context switches
 * of its threads. A process absent from the first sample (started during the window, e.g. a new
 * database connection) counts from zero.
 */
export function cpuShares(before: CpuSample, after: CpuSample, groups: Record<string, readonly number[]>): CpuShare[] {
  const seconds = (after.at - before.at) / 1000;
  return Object.entries(groups).map(([name, pids]) => {
    let ticks = 0;
    for (const pid of pids) {
      const end = after.ticks.get(pid);
      if (end !== undefined) ticks += end - (before.ticks.get(pid) ?? 0);
    }
    const share: CpuShare = { name, pids: [...pids], percentOfOneCore: seconds > 0 ? round1((ticks / TICKS_PER_SECOND / seconds) * 100) : 0 };
    const switches = switchesBetween(before, after, pids);
    return switches ? { ...share, contextSwitches: switches } : share;
  });
}

function switchesBetween(before: CpuSample, after: CpuSample, pids: readonly number[]): ContextSwitches | undefined {
  if (!before.switches || !after.switches) return undefined;
  const total: ContextSwitches = { voluntary: 0, involuntary: 0 };
  for (const pid of pids) {
    const end = after.switches.get(pid);
    if (end === undefined) continue;
    const start = before.switches.get(pid);
    total.voluntary += end.voluntary - (start?.voluntary ?? 0);
    total.involuntary += end.involuntary - (start?.involuntary ?? 0);
  }
  return total;
}

/** The machine's busy share over the window, in percent of all cores. */
export function machineBusyPercent(before: CpuSample, after: CpuSample): number {
  const total = after.machine.total - before.machine.total;
  return total > 0 ? round1(((after.machine.busy - before.machine.busy) / total) * 100) : 0;
}

/** Processes whose environment holds `name=value` (how the run's apps are told apart from others'). */
export function pidsWithEnv(name: string, value: string): { pid: number; command: string }[] {
  const wanted = `${name}=${value}`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (!environ.includes(wanted)) continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0').join(' ').trim();
      found.push({ pid: Number(entry), command });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** Processes whose command line contains `text`. */
export function pidsWithCommand(text: string): number[] {
  const found: number[] = [];
  for (const entry of safeReaddir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes(text)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
