// The history of the benchmarks as data: bench/results/runs.jsonl, one JSON object per run, newest
// last. Each holds the run's commit, machine, headline figures and verdicts (as the run's JSON file
// has them), its CPU per process and per message; the JSON file it names holds the rest.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkFigures, BulkVerdicts } from './bulk-results';
import type { OtpBenchFigures, OtpVerdicts } from './otp-results';
import type { CpuFigures, BenchProcess } from './phase-observer';
import type { CostPerMessage } from './process-cost';
import type { Machine, Revision } from './results';
import type { SmsBenchFigures, TargetVerdicts } from './sms-results';

export const RUNS_FILE = 'runs.jsonl';

/** Where a window's CPU went: shares of one core per process group, and what a message cost. */
export interface CpuRecord {
  /** gateway, sms-dispatcher, smsc-simulator, postgres-run (the run's backends), bench (the load generator), other (the rest of the machine). */
  percentOfOneCore: Record<string, number>;
  /** The whole machine's busy share of all its cores. */
  machineBusyPercent: number;
  /** CPU ms per message of each process and their sum (process-cost.ts); null in runs before it was measured. */
  msPerMessage: CostPerMessage | null;
}

interface RecordBase {
  /** Start of the run, UTC, to the second. */
  started: string;
  commit: string;
  /** Uncommitted changes (outside bench/results) were in the measured tree. */
  dirty: boolean;
  machine: Machine;
  /** The settings a figure depends on besides those in `figures` (warm-up seconds). */
  settings: Record<string, number>;
  /** The headline window's CPU (sms, otp: the load; bulk: the 100,000's dispatch). */
  cpu: CpuRecord | null;
  /** The run's JSON file in bench/results, with every figure. */
  file: string;
  /** What the figures alone do not say: the conditions of the run, a method since changed. */
  note?: string;
}

export interface SmsRecord extends RecordBase {
  benchmark: 'sms';
  figures: SmsBenchFigures;
  verdicts: TargetVerdicts;
}

export interface OtpRecord extends RecordBase {
  benchmark: 'otp';
  /** duringCampaign is null in runs before campaigns existed. */
  figures: Omit<OtpBenchFigures, 'duringCampaign'> & { duringCampaign: OtpBenchFigures['duringCampaign'] | null };
  verdicts: OtpVerdicts;
  /** The second window's CPU (the campaign's work included) and the third's. */
  cpuDuringCampaign: CpuRecord | null;
  cpuAloneAgain: CpuRecord | null;
}

export interface BulkRecord extends RecordBase {
  benchmark: 'bulk';
  figures: BulkFigures;
  verdicts: BulkVerdicts;
}

export type RunRecord = SmsRecord | OtpRecord | BulkRecord;
export type Benchmark = RunRecord['benchmark'];

/** `2 × AMD EPYC`: runs are compared only on one kind of machine. */
export function machineKind(host: Pick<Machine, 'cores' | 'cpu'>): string {
  return `${host.cores} × ${host.cpu}`;
}

/** How a record names the groups of phase-observer.ts. */
const GROUP_KEYS: Readonly<Record<string, string>> = { 'postgres (run)': 'postgres-run', 'everything else': 'other' };

/** A window's CPU as the record keeps it. */
export function cpuRecord({ shares, busy }: CpuFigures, benchProcess: BenchProcess, msPerMessage: CostPerMessage | null): CpuRecord {
  const percentOfOneCore: Record<string, number> = {};
  for (const share of shares) {
    if (share.name === 'redis-server (shared)') continue; // not in the old rows' cell; the JSON file has it
    percentOfOneCore[share.name === benchProcess.name ? 'bench' : (GROUP_KEYS[share.name] ?? share.name)] = share.percentOfOneCore;
  }
  return { percentOfOneCore, machineBusyPercent: busy, msPerMessage };
}

/** The fields every record starts with. */
export function recordBase(started: Date, rev: Revision, host: Machine): Pick<RecordBase, 'started' | 'commit' | 'dirty' | 'machine'> {
  return { started: started.toISOString().replace(/\.\d{3}Z$/, 'Z'), commit: rev.commit, dirty: rev.dirty, machine: host };
}

/** The note of a run from BENCH_NOTE (say why its figures may be off: a busy machine, a probe attached). */
export function noteFrom(env: NodeJS.ProcessEnv): { note?: string } {
  const note = env['BENCH_NOTE']?.trim();
  return note ? { note } : {};
}

/** The records of runs.jsonl's text, in its order; a line that is not one names its number. */
export function parseRecords(text: string): RunRecord[] {
  return text.split('\n').flatMap((line, index) => {
    if (line.trim() === '') return [];
    try {
      const record = JSON.parse(line) as RunRecord;
      if (!['sms', 'otp', 'bulk'].includes(record.benchmark) || typeof record.started !== 'string') throw new Error('not a run');
      return [record];
    } catch (error) {
      throw new Error(`${RUNS_FILE} line ${index + 1}: ${(error as Error).message}`);
    }
  });
}

export function formatRecord(record: RunRecord): string {
  return `${JSON.stringify(record)}\n`;
}

export function readRecords(resultsDir: string): RunRecord[] {
  const path = join(resultsDir, RUNS_FILE);
  return existsSync(path) ? parseRecords(readFileSync(path, 'utf8')) : [];
}

export function appendRecord(resultsDir: string, record: RunRecord): void {
  appendFileSync(join(resultsDir, RUNS_FILE), formatRecord(record));
}
