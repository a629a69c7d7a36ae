// What a run writes: bench/results/<name>-<date>.json with every figure, and one row in
// bench/results/README.md, which explains the columns and the machine when it is first created.
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';

/** The targets for POST /sms/send on one machine. */
export const SMS_TARGETS = { acceptedPerSecond: 4_000, p99Ms: 30, submitP99Ms: 50 } as const;

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

export interface SmsBenchFigures {
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
  /** messages.created_at → message_parts.submitted_at, over the messages accepted in the window. */
  submit: { samples: number; p50Ms: number | null; p99Ms: number | null; maxMs: number | null; notSubmittedAtEnd: number; drainedAfterS: number | null };
}

export interface TargetVerdicts {
  throughput: boolean;
  submit: boolean;
}

export function smsVerdicts(figures: SmsBenchFigures): TargetVerdicts {
  return {
    throughput: figures.acceptedPerSecond >= SMS_TARGETS.acceptedPerSecond && figures.latencyMs.p99 <= SMS_TARGETS.p99Ms,
    submit: figures.submit.p99Ms !== null && figures.submit.notSubmittedAtEnd === 0 && figures.submit.p99Ms <= SMS_TARGETS.submitP99Ms,
  };
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

/** `2026-11-22T02-35-02Z`: the ISO date and time, fit for a file name. */
export function fileStamp(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z').replace(/:/g, '-');
}

const fmt = (value: number | null, digits = 0): string => (value === null ? '—' : value.toFixed(digits));
const verdict = (met: boolean): string => (met ? 'met' : '**not met**');

export const SMS_README_HEADER = (host: Machine): string => `# Benchmark results

One row per run of \`npm run bench -- <name>\`, newest last; the JSON file named in the last column
holds every figure of the run (status codes, CPU per process, database wait events, the machine).

## sms — POST /sms/send, one recipient per request

The whole SMS path runs on this one machine, as \`npm start\` runs it: gateway, sms-dispatcher and
SMSC simulator (receipts after 1 s), on a throwaway PostgreSQL database and Redis key prefix,
\`LOG_LEVEL=warn\`. One company with a large balance sends every request (so every acceptance
debits the same balance row). autocannon, in the benchmark's own process on the same machine,
keeps \`conns\` connections busy for \`dur\` seconds after a short warm-up, each request to a
different valid number.

| Column | Meaning |
|---|---|
| date | start of the run (UTC) |
| commit | \`git rev-parse --short HEAD\`; \`+dirty\`: uncommitted changes were in the measured tree |
| dur, conns | measured seconds, concurrent connections |
| accepted/s | 2xx answers per second (each is a message charged and queued) |
| p50, p99, p99.9 | latency of the 2xx answers in ms, as autocannon measures it (whole milliseconds) |
| non-2xx, errors | answers other than 2xx; connection errors and timeouts |
| submit p50, p99 | ms from \`messages.created_at\` (the acceptance transaction) to \`message_parts.submitted_at\` (the dispatcher starting to record the carrier's submit_sm_resp), over the messages accepted in the window: an upper bound of acceptance → submit_sm. \`backlog\`: parts still not submitted when the dispatcher was given up on |
| target: accept | the issue's target, ≥ ${SMS_TARGETS.acceptedPerSecond} accepted/s with p99 ≤ ${SMS_TARGETS.p99Ms} ms |
| target: submit | the issue's target, submit_sm within ${SMS_TARGETS.submitP99Ms} ms at p99 |
| CPU | percent of one core over the window: gateway / sms-dispatcher / simulator / PostgreSQL backends of the run / autocannon / everything else on the machine except Redis (other people's processes; Redis is in the JSON file); then the machine-wide busy share of all cores |

Machine of the first run: ${describeMachine(host)}. Rows from another machine say so in \`machine\`.

| date | commit | machine | dur | conns | accepted/s | p50 | p99 | p99.9 | non-2xx | errors | submit p50 | submit p99 | target: accept | target: submit | CPU | file |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
`;

export function describeMachine(host: Machine): string {
  return `${host.cores} × ${host.cpu}, ${host.memoryGiB} GiB, Linux ${host.kernel}, Node ${host.node}, ${host.postgres}, Redis ${host.redis}`;
}

export interface SmsRow {
  started: Date;
  revision: Revision;
  machine: Machine;
  figures: SmsBenchFigures;
  cpu: string;
  file: string;
}

export function smsReadmeRow({ started, revision: rev, machine: host, figures: f, cpu, file }: SmsRow): string {
  const verdicts = smsVerdicts(f);
  const submitP99 = f.submit.notSubmittedAtEnd > 0 ? `${fmt(f.submit.p99Ms)} (backlog ${f.submit.notSubmittedAtEnd})` : fmt(f.submit.p99Ms);
  return `| ${[
    started.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    `${rev.commit}${rev.dirty ? '+dirty' : ''}`,
    `${host.cores} × ${host.cpu}`,
    fmt(f.durationS, 1),
    String(f.connections),
    fmt(f.acceptedPerSecond, 0),
    fmt(f.latencyMs.p50),
    fmt(f.latencyMs.p99),
    fmt(f.latencyMs.p999),
    String(f.non2xx),
    String(f.errors),
    fmt(f.submit.p50Ms),
    submitP99,
    verdict(verdicts.throughput),
    verdict(verdicts.submit),
    cpu,
    `[${file}](${file})`,
  ].join(' | ')} |\n`;
}

/** Writes the JSON file and appends the README row; returns the JSON file's path. */
export function writeSmsResults(resultsDir: string, row: SmsRow, details: object): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, row.file);
  writeFileSync(path, `${JSON.stringify(details, null, 2)}\n`);
  const readme = join(resultsDir, 'README.md');
  if (!existsSync(readme)) writeFileSync(readme, SMS_README_HEADER(row.machine));
  appendFileSync(readme, smsReadmeRow(row));
  return path;
}
