// The table at the top of bench/results/README.md: the latest run of every benchmark on every kind
// of machine, its figures against the issue's targets and what a message cost, made from
// runs.jsonl (by every run, and by `npm run bench -- report`) between two marker lines.
import { BULK_TARGETS } from './bulk-results';
import { aloneReference, judgedPart, OTP_TARGETS, ratio } from './otp-results';
import { costCell } from './process-cost';
import { machineKind, type BulkRecord, type OtpRecord, type RunRecord, type SmsRecord } from './run-records';
import { SMS_TARGETS } from './sms-results';

export const TABLE_START = '<!-- latest runs: made from runs.jsonl by `npm run bench -- report`; edit the data, not this table -->';
export const TABLE_END = '<!-- end of latest runs -->';

const BENCHMARKS: RunRecord['benchmark'][] = ['sms', 'otp', 'bulk'];

const count = (value: number) => Math.round(value).toLocaleString('en-US');
/** A figure to a tenth at most: `23`, `17.9`; `—` when there is none. */
const fig = (value: number | null) => (value === null ? '—' : String(Math.round(value * 10) / 10));
const times = (value: number | null) => (value === null ? '—' : value.toFixed(2));
const met = (value: boolean | null) => (value === null ? 'not judged' : value ? 'met' : '**not met**');

function smsTargets({ figures: f, verdicts }: SmsRecord): string {
  const accept = `${count(f.acceptedPerSecond)} accepted/s with p99 ${fig(f.latencyMs.p99)} ms (≥ ${count(SMS_TARGETS.acceptedPerSecond)} with ≤ ${SMS_TARGETS.p99Ms}): ${met(verdicts.throughput)}`;
  const at = f.atSimulator ?? null;
  const missing = at === null ? 0 : at.messages - at.arrived;
  const submit =
    at === null
      ? `submit p99 ${fig(f.submit.p99Ms)} ms at the record (≤ ${SMS_TARGETS.submitP99Ms}): ${met(verdicts.submit)}`
      : `submit_sm p99 ${fig(at.p99Ms)} ms at the simulator${missing > 0 ? `, ${missing} not there` : ''} (≤ ${SMS_TARGETS.submitP99Ms}): ${met(verdicts.submit)}`;
  return `${accept}; ${submit}`;
}

function otpCampaign(record: OtpRecord): string {
  const { figures: f, verdicts } = record;
  const during = f.duringCampaign;
  if (during === null) return 'during a campaign: not measured';
  const part = judgedPart(during);
  const reference = aloneReference({ ...f, duringCampaign: during });
  const limit = `≤ ×${((100 + OTP_TARGETS.duringCampaignMaxWorsePercent) / 100).toFixed(2)}`;
  if (part === null) return `during a campaign: ${met(verdicts.duringCampaign)} (the campaign was all submitted too early in the window)`;
  const ratios = `p99 ×${times(ratio(part.p99Ms, reference.p99Ms))}, submit p99 ×${times(ratio(part.submitP99Ms, reference.submitP99Ms))}`;
  const against = f.aloneAgain ? 'the mean of the alone windows' : 'alone';
  return `during a campaign ${ratios} of ${against} (${limit}): ${met(verdicts.duringCampaign)}`;
}

function otpTargets(record: OtpRecord): string {
  const { figures: f, verdicts } = record;
  const api = `API p99 ${fig(f.latencyMs.p99)} ms at ${count(f.overallRate)}/s (≤ ${OTP_TARGETS.apiP99Ms} at ${count(OTP_TARGETS.requestsPerSecond)}/s): ${met(verdicts.api)}`;
  const at = f.atSimulator ?? null;
  const carrier =
    at === null
      ? `to the carrier p99 ${fig(f.submit.p99Ms)} ms at the record (≤ ${OTP_TARGETS.submitP99Ms}): ${met(verdicts.submit)}`
      : `to the carrier p99 ${fig(at.p99Ms)} ms at the simulator (≤ ${OTP_TARGETS.submitP99Ms}): ${met(verdicts.submit)}`;
  return `${api}; ${carrier}; ${otpCampaign(record)}`;
}

function bulkTargets({ figures: f, verdicts: v }: BulkRecord): string {
  const total = f.accept100k.recipients;
  const progress = (value: number | null, reached: number, what: string, got: string) =>
    value === null ? `${count(reached)} of ${count(total)} ${got} within ${f.timeoutS} s` : `all ${what} in ${value.toFixed(1)} s`;
  const accept = ({ recipients, ms, status }: BulkRecord['figures']['accept100k']) =>
    status !== null && status >= 200 && status < 300
      ? `${count(recipients)} accepted in ${count(ms)} ms`
      : `${count(recipients)} ${status === null ? 'not answered' : `refused (HTTP ${status})`}`;
  return [
    `${accept(f.accept100k)} (≤ ${count(BULK_TARGETS.accept100kMs)}): ${met(v.accept100k)}`,
    `${progress(f.submit100kS, f.reached100k.submittedParts, 'submitted', 'submitted')} (≤ ${BULK_TARGETS.submit100kS}): ${met(v.submit100k)}`,
    `${progress(f.receipts100kS, f.reached100k.finalMessages, 'receipts', 'with their receipts')} (≤ ${BULK_TARGETS.receipts100kS}): ${met(v.receipts100k)}`,
    `${accept(f.accept1M)}, gateway peak ${fig(f.peakRssMiB['gateway'] ?? null)} MiB (≤ ${count(BULK_TARGETS.gatewayPeak1MMiB)}): ${met(v.gatewayMemory1M)}`,
  ].join('; ');
}

/** The run's figures against the targets, as one cell. */
export function targetsCell(record: RunRecord): string {
  switch (record.benchmark) {
    case 'sms':
      return smsTargets(record);
    case 'otp':
      return otpTargets(record);
    case 'bulk':
      return bulkTargets(record);
  }
}

/** The newest record of each benchmark on each kind of machine: benchmarks in order, machines by their latest run, newest first. */
export function latestRuns(records: readonly RunRecord[]): RunRecord[] {
  const latest = new Map<string, RunRecord>();
  for (const record of records) {
    const key = `${record.benchmark}\n${machineKind(record.machine)}`;
    const seen = latest.get(key);
    if (!seen || record.started >= seen.started) latest.set(key, record);
  }
  const order = (record: RunRecord) => BENCHMARKS.indexOf(record.benchmark);
  return [...latest.values()].sort((a, b) => order(a) - order(b) || b.started.localeCompare(a.started));
}

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The markdown table of latestRuns. */
export function latestTable(records: readonly RunRecord[]): string {
  const lines = [
    '| benchmark | machine | latest run | against the targets | CPU ms per message: sum (each process) | note |',
    '|---|---|---|---|---|---|',
    ...latestRuns(records)
      .map((record) =>
        [
          record.benchmark,
          machineKind(record.machine),
          `${record.started.slice(0, 16).replace('T', ' ')} \`${record.commit}${record.dirty ? '+dirty' : ''}\``,
          targetsCell(record),
          costCell(record.cpu?.msPerMessage),
          record.note ?? '',
        ]
          .map(escape)
          .join(' | '),
      )
      .map((row) => `| ${row} |`),
  ];
  return `${lines.join('\n')}\n`;
}

/** The README with the table between its markers replaced by `table` (or put under its title when it has none). */
export function withLatestTable(readme: string, table: string): string {
  const block = `${TABLE_START}\n${table}${TABLE_END}`;
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start >= 0 && end > start) return `${readme.slice(0, start)}${block}${readme.slice(end + TABLE_END.length)}`;
  if (readme.trim() === '') return `# Benchmark results\n\n${block}\n`;
  const title = readme.indexOf('\n');
  return title < 0 ? `${readme}\n\n${block}\n` : `${readme.slice(0, title + 1)}\n${block}\n${readme.slice(title + 1)}`;
}

/** The table between the README's markers, as written; undefined without them. */
export function tableIn(readme: string): string | undefined {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  return start >= 0 && end > start ? readme.slice(start + TABLE_START.length + 1, end) : undefined;
}
