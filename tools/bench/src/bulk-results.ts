// The bulk benchmark's targets, verdicts, README section and row.
import type { ReadmeSection } from './readme-sections';
import { describeMachine, fmt, runCells, tableRow, verdict, writeResults, type Machine, type Revision } from './results';

/** The issue's targets for campaigns on one machine, with the simulator answering in 1 ms. */
export const BULK_TARGETS = { accept100kMs: 1_000, submit100kS: 15, receipts100kS: 25, gatewayPeak1MMiB: 1_024 } as const;

/** The name of the benchmark's own process among the peaks. */
export const BENCH_PROCESS = 'bench';

/** One POST /sms/send-bulk as the figures keep it. */
export interface AcceptFigures {
  recipients: number;
  ms: number;
  requestMB: number;
  /** HTTP status; null: no answer. */
  status: number | null;
  error: string | null;
}

export interface BulkFigures {
  accept100k: AcceptFigures;
  /** Acceptance → the last part's submitted_at; null: not every message submitted before the timeout. */
  submit100kS: number | null;
  /** Acceptance → the first poll of the simulator's GET /stats counting every part accepted (polls every 0.5 s); null: not seen. */
  atSimulator100kS: number | null;
  /** Acceptance → the last message's final state (its receipt stored and applied); null: not all by the timeout. */
  receipts100kS: number | null;
  /** How far the 100,000 got: messages made, parts submitted, messages final. */
  reached100k: { messages: number; submittedParts: number; finalMessages: number; atSimulator: number | null };
  timeoutS: number;
  accept1M: AcceptFigures;
  /** VmHWM of each process over the whole run, MiB: gateway, sms-dispatcher, smsc-simulator, bench. */
  peakRssMiB: Record<string, number>;
  /** The gateway's VmHWM before the 1,000,000 were sent. */
  gatewayPeakBefore1MMiB: number | null;
}

export interface BulkVerdicts {
  accept100k: boolean;
  submit100k: boolean;
  receipts100k: boolean;
  /** The 1,000,000 accepted with the gateway's peak memory within 1 GiB. */
  gatewayMemory1M: boolean;
}

const accepted = (a: AcceptFigures) => a.status !== null && a.status >= 200 && a.status < 300;
const within = (value: number | null, limit: number) => value !== null && value <= limit;

export function bulkVerdicts(f: BulkFigures): BulkVerdicts {
  return {
    accept100k: accepted(f.accept100k) && f.accept100k.ms <= BULK_TARGETS.accept100kMs,
    submit100k: within(f.submit100kS, BULK_TARGETS.submit100kS),
    receipts100k: within(f.receipts100kS, BULK_TARGETS.receipts100kS),
    gatewayMemory1M: accepted(f.accept1M) && within(f.peakRssMiB['gateway'] ?? null, BULK_TARGETS.gatewayPeak1MMiB),
  };
}

/** The time of an acceptance, or why there is none: `—` (HTTP 413), `—` (no answer). */
export function acceptCell(a: AcceptFigures): string {
  if (accepted(a)) return fmt(a.ms);
  return `— (${a.status === null ? 'no answer' : `HTTP ${a.status}`} after ${fmt(a.ms)} ms)`;
}

/** Seconds, or how far the campaign got when the benchmark stopped following it. */
export function progressCell(seconds: number | null, reached: number, total: number, timeoutS: number): string {
  return seconds !== null ? fmt(seconds, 1) : `— (${reached} of ${total} after ${timeoutS} s)`;
}

export function peaksCell(peaks: Record<string, number>): string {
  const of = (name: string) => (peaks[name] === undefined ? '—' : fmt(peaks[name]));
  return `${of('gateway')} / ${of('sms-dispatcher')} / ${of('smsc-simulator')} / ${of(BENCH_PROCESS)}`;
}

export function bulkSection(host: Machine): ReadmeSection {
  return {
    name: 'bulk',
    heading: '## bulk — campaigns of 100,000 and 1,000,000 recipients',
    body: `The same stack as the sms benchmark (gateway, sms-dispatcher, SMSC simulator, throwaway database and
Redis key prefix, \`LOG_LEVEL=warn\`), but the simulator answers each submit_sm after 1 ms
(\`SMSC_LATENCY_MS=1\`) and sends its receipt 50 ms later (\`SMSC_RECEIPT_DELAY_MS=50\`); the
dispatcher keeps its defaults. One company with a large balance sends, from the benchmark's own
process, first a warm-up campaign (then \`ANALYZE\`, as a database in service has statistics), then
one \`POST /sms/send-bulk\` of 100,000 different valid numbers in mode 1 (one text, \`batch_size\`
left at 1,000), followed in the run's database until every message is final, then one of
1,000,000 other numbers with \`scheduled_time\` a day ahead, so that only its acceptance is measured.

| Column | Meaning |
|---|---|
| date | start of the run (UTC) |
| commit | \`git rev-parse --short HEAD\`; \`+dirty\`: uncommitted changes were in the measured tree |
| accept 100k, accept 1M | ms from sending the request to the last byte of the answer; \`—\` with the status when it was not 2xx |
| MB | size of that request's JSON body (10^6 bytes) |
| submit 100k | s from the answer to the last part's \`message_parts.submitted_at\` (the dispatcher starting to record its submit_sm_resp); \`—\` with how many were submitted when the benchmark gave up |
| at simulator | s from the answer to the first poll (every 0.5 s) of the simulator's \`GET /stats\` that counted all 100,000 parts accepted: when the last submit_sm reached it, give or take the poll |
| receipts 100k | s from the answer to the last message's \`completed_at\` (its receipt stored and applied: a final state); \`—\` likewise |
| peak MiB | VmHWM (peak resident memory) over the whole run: gateway / sms-dispatcher / simulator / the benchmark's own process (which builds the requests) |
| target: accept, submit, receipts | the issue's targets: 100,000 accepted within ${BULK_TARGETS.accept100kMs / 1000} s, submitted within ${BULK_TARGETS.submit100kS} s, receipts stored within ${BULK_TARGETS.receipts100kS} s |
| gw ≤ 1 GiB | the 1,000,000 accepted with the gateway's peak memory within ${BULK_TARGETS.gatewayPeak1MMiB} MiB |
| CPU (dispatch) | percent of one core from the 100,000's acceptance until every message was final: gateway / sms-dispatcher / simulator / PostgreSQL backends of the run / the benchmark (its polls) / everything else on the machine except Redis; then the machine-wide busy share of all cores |

Machine of the first run: ${describeMachine(host)}. Rows from another machine say so in \`machine\`.`,
    tableHeader: `| date | commit | machine | accept 100k ms | MB | submit 100k s | at simulator s | receipts 100k s | accept 1M ms | MB | peak MiB | target: accept | target: submit | target: receipts | gw ≤ 1 GiB | CPU (dispatch) | file |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
`,
  };
}

export interface BulkRow {
  started: Date;
  revision: Revision;
  machine: Machine;
  figures: BulkFigures;
  cpu: string;
  file: string;
}

export function bulkReadmeRow({ started, revision: rev, machine: host, figures: f, cpu, file }: BulkRow): string {
  const verdicts = bulkVerdicts(f);
  const total = f.accept100k.recipients;
  return tableRow([
    ...runCells(started, rev, host),
    acceptCell(f.accept100k),
    fmt(f.accept100k.requestMB, 1),
    progressCell(f.submit100kS, f.reached100k.submittedParts, total, f.timeoutS),
    progressCell(f.atSimulator100kS, f.reached100k.atSimulator ?? 0, total, f.timeoutS),
    progressCell(f.receipts100kS, f.reached100k.finalMessages, total, f.timeoutS),
    acceptCell(f.accept1M),
    fmt(f.accept1M.requestMB, 1),
    peaksCell(f.peakRssMiB),
    verdict(verdicts.accept100k),
    verdict(verdicts.submit100k),
    verdict(verdicts.receipts100k),
    verdict(verdicts.gatewayMemory1M),
    cpu,
    `[${file}](${file})`,
  ]);
}

/** Writes bench/results/<row.file> and the row in the README's bulk section; returns the JSON file's path. */
export function writeBulkResults(resultsDir: string, row: BulkRow, details: object): string {
  return writeResults(resultsDir, row.file, details, bulkSection(row.machine), bulkReadmeRow(row));
}
