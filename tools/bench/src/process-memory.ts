// How much memory the run's processes took: the peak resident set (VmHWM) and the current one
// (VmRSS) of each, read from /proc/<pid>/status (Linux), as the kernel keeps them for the whole
// life of the process.
import { readFileSync } from 'node:fs';
import { appName } from './database-figures';
import { pidsWithEnv } from './process-cpu';

export interface ProcessMemory {
  name: string;
  pid: number;
  peakRssMiB: number;
  rssMiB: number;
}

/** `VmHWM: 123456 kB` and `VmRSS: …` of a status file, in MiB to one decimal; undefined when absent. */
export function parseStatusMemory(status: string): { peakRssMiB: number; rssMiB: number } | undefined {
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  const peak = kib('VmHWM');
  const rss = kib('VmRSS');
  if (!Number.isFinite(peak) || !Number.isFinite(rss)) return undefined;
  return { peakRssMiB: Math.round((peak / 1024) * 10) / 10, rssMiB: Math.round((rss / 1024) * 10) / 10 };
}

/** A process's peak and current resident memory, or undefined when it is gone. */
export function processMemory(pid: number): { peakRssMiB: number; rssMiB: number } | undefined {
  try {
    return parseStatusMemory(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** Every process of the run (found by its MP_BENCH_RUN environment), and the benchmark's own. */
export function runMemory(run: string, benchName: string): ProcessMemory[] {
  const processes = pidsWithEnv('MP_BENCH_RUN', run)
    .filter((p) => p.pid !== process.pid)
    .map((p) => ({ name: appName(p.command), pid: p.pid }));
  processes.push({ name: benchName, pid: process.pid });
  return processes.flatMap(({ name, pid }) => {
    const memory = processMemory(pid);
    return memory ? [{ name, pid, ...memory }] : [];
  });
}

/** The highest peak among the processes of each name (an app normally is one process). */
export function peakByName(processes: readonly ProcessMemory[]): Record<string, number> {
  const peaks: Record<string, number> = {};
  for (const { name, peakRssMiB } of processes) peaks[name] = Math.max(peaks[name] ?? 0, peakRssMiB);
  return peaks;
}
