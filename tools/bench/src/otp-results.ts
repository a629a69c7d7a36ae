// The OTP benchmark's targets, verdicts, README section and row.
import type { ProgressAt } from './campaign-figures';
import type { ReadmeSection } from './readme-sections';
import {
  describeMachine,
  fmt,
  runCells,
  submitMet,
  submitP99Cell,
  tableRow,
  verdict,
  writeResults,
  type LoadFigures,
  type Machine,
  type Revision,
} from './results';

/** The issue's targets for POST /otp/send on one machine. */
export const OTP_TARGETS = { requestsPerSecond: 500, apiP99Ms: 15, submitP99Ms: 50, duringCampaignMaxWorsePercent: 10 } as const;

/** A run holds the rate if it accepts at least this share of it per second. */
const RATE_HELD = 0.95;

/** The rows before bulk campaigns existed say so in their campaign cell. */
export const CAMPAIGN_NOT_MEASURED = 'not measured (bulk not built yet)';

/** The campaign that drains during the second window, and how far it had got. */
export interface CampaignDuringWindow {
  recipients: number;
  /** POST /sms/send-bulk, from sending the request to the last byte of its answer. */
  acceptMs: number;
  /** s from the campaign's answer to the window's start and end. */
  windowStartAfterS: number;
  windowEndAfterS: number;
  atWindowStart: ProgressAt;
  atWindowEnd: ProgressAt;
  /** s from the answer to the last part's submitted_at; null: not every part was submitted when the run looked, after the window's drain. */
  allSubmittedAfterS: number | null;
}

/** The same load as alone, started right after the campaign was accepted. */
export interface CampaignCaseFigures extends LoadFigures {
  campaign: CampaignDuringWindow;
}

export interface OtpBenchFigures extends LoadFigures {
  /** The requests per second asked, over all connections. */
  overallRate: number;
  /** The same load while a 100,000-recipient campaign drains. */
  duringCampaign: CampaignCaseFigures;
}

export interface OtpVerdicts {
  /** p99 ≤ 15 ms with the rate held and every answer 2xx; null when the run's rate is below the target's. */
  api: boolean | null;
  submit: boolean;
  /**
   * API p99 and submit p99 during the campaign each within 110% of alone, both loads held and clean
   * and every part submitted; null when the campaign was all submitted before the window ended.
   */
  duringCampaign: boolean | null;
}

/** At least 95% of the rate accepted per second, and every answer 2xx. */
function held(f: LoadFigures, overallRate: number): boolean {
  return f.acceptedPerSecond >= overallRate * RATE_HELD && f.non2xx === 0 && f.errors === 0 && f.timeouts === 0;
}

/** during / alone, to two decimals; null when either is missing or alone is 0. */
export function ratio(during: number | null, alone: number | null): number | null {
  return during === null || alone === null || alone <= 0 ? null : Math.round((during / alone) * 100) / 100;
}

/** Still submitting the campaign's parts when the window ended: the whole window ran while it drained. */
export function drainedThroughWindow(c: CampaignDuringWindow): boolean {
  return c.allSubmittedAfterS === null || c.allSubmittedAfterS > c.windowEndAfterS;
}

/** `during` no more than the issue's 10% above `alone` (in whole percents, free of rounding). */
const noWorse = (during: number | null, alone: number | null) =>
  during !== null && alone !== null && during * 100 <= alone * (100 + OTP_TARGETS.duringCampaignMaxWorsePercent);

export function duringCampaignVerdict(alone: OtpBenchFigures): boolean | null {
  const during = alone.duringCampaign;
  if (!drainedThroughWindow(during.campaign)) return null;
  if (!held(alone, alone.overallRate) || !held(during, alone.overallRate)) return false;
  if (alone.submit.notSubmittedAtEnd > 0 || during.submit.notSubmittedAtEnd > 0) return false;
  return noWorse(during.latencyMs.p99, alone.latencyMs.p99) && noWorse(during.submit.p99Ms, alone.submit.p99Ms);
}

export function otpVerdicts(figures: OtpBenchFigures): OtpVerdicts {
  return {
    api: figures.overallRate < OTP_TARGETS.requestsPerSecond ? null : held(figures, figures.overallRate) && figures.latencyMs.p99 <= OTP_TARGETS.apiP99Ms,
    submit: submitMet(figures.submit, OTP_TARGETS.submitP99Ms),
    duringCampaign: duringCampaignVerdict(figures),
  };
}

/** `0`, or the count and the answers it is made of: `12 (429: 10, 503: 2)`. */
export function non2xxCell(figures: Pick<LoadFigures, 'non2xx' | 'statusCodes'>): string {
  if (figures.non2xx === 0) return '0';
  const codes = Object.entries(figures.statusCodes).filter(([code]) => !code.startsWith('2'));
  return `${figures.non2xx} (${codes.map(([code, count]) => `${code}: ${count}`).join(', ')})`;
}

/** What the otp section says the benchmark measures, before its column legend. */
const OTP_MEASURES = `The same stack as the sms benchmark (gateway, sms-dispatcher, SMSC simulator answering each
submit_sm at once and sending its receipt after 1 s, throwaway database and Redis key prefix,
\`LOG_LEVEL=warn\`), with the bench company's OTP limit (\`otp_rate_limit\`) and its application's
\`otp_prefix_limit_per_hour\` raised to 1,000,000 with the admin tool, so that no send is refused.
An open-loop load evenly paced at \`rate\` requests per second (request i leaves at start + i/rate,
whatever the answers before it did) over at most \`conns\` keep-alive connections for \`dur\`
seconds after a 10-second warm-up at the same rate (3 s in rows before 2026-11-24 17:00
UTC), each \`POST /otp/send { appid, recipient }\` to a
different valid number. Rows before the paced load (commit b84b3e5) used autocannon's fixed rate,
which sends each second's requests in a burst at its start.

Each run then measures the same load again on the same stack (same rate, connections and
duration, other numbers) while a campaign drains. A second company, "Campaign" (a marketing sender
beside the OTP sender, with its own balance, so that the OTP company's balance and rows carry only
OTPs, as in the first window), sends a warm-up campaign of 2,000 recipients, followed to its end,
then \`ANALYZE\`; then one \`POST /sms/send-bulk\` of 100,000 other numbers in mode 1 (one text,
\`batch_size\` left at 1,000, normal priority), and the second window starts as soon as it is
answered (no OTP warm-up: the stack is warm from the first window). The simulator keeps the
settings above in both windows (the bulk benchmark's 1 ms answers and 50 ms receipts would change
the first window's conditions), so that the two windows differ only by the campaign.`;

export function otpSection(host: Machine): ReadmeSection {
  return {
    name: 'otp',
    heading: '## otp — POST /otp/send at a fixed rate',
    body: `${OTP_MEASURES}

| Column | Meaning |
|---|---|
| date | start of the run (UTC) |
| commit | \`git rev-parse --short HEAD\`; \`+dirty\`: uncommitted changes were in the measured tree |
| dur, conns, rate | measured seconds, connections at most, requests per second asked |
| accepted/s | 2xx answers per second (each an OTP charged and queued) |
| p50, p99, p99.9 | latency of the 2xx answers in ms, from the moment each request was due (no coordinated omission) |
| non-2xx, errors | answers other than 2xx, by status; connection errors and timeouts |
| submit p50, p99 | ms from \`messages.created_at\` (the acceptance transaction) to \`message_parts.submitted_at\` (the dispatcher starting to record the carrier's submit_sm_resp), over the OTPs accepted in the window: an upper bound of acceptance → submit_sm. \`backlog\`: parts still not submitted when the dispatcher was given up on |
| target: API | the issue's target, p99 ≤ ${OTP_TARGETS.apiP99Ms} ms at ${OTP_TARGETS.requestsPerSecond} requests/s: met when the p99 is within it, at least ${RATE_HELD * 100}% of the rate was accepted per second and every answer was 2xx; \`—\` at a rate below ${OTP_TARGETS.requestsPerSecond}/s |
| target: carrier | the issue's target, submit_sm within ${OTP_TARGETS.submitP99Ms} ms at p99 |
| during campaign | the issue's target, no more than ${OTP_TARGETS.duringCampaignMaxWorsePercent}% worse while a 100,000-recipient campaign drains: met when the second window's p99 and submit p99 are each within ${100 + OTP_TARGETS.duringCampaignMaxWorsePercent}% of the first window's, both windows held the rate with every answer 2xx, and every part of both was submitted; \`—\` when the campaign was all submitted before the second window ended (the window did not all run while it drained). Then the second window's figures as in the columns before (×: its ratio to the first window's), the campaign's parts submitted by the window's start → end, and the window's CPU as in the CPU column. Rows before bulk campaigns existed (up to commit e667c8c): ${CAMPAIGN_NOT_MEASURED} |
| CPU | percent of one core over the first window: gateway / sms-dispatcher / simulator / PostgreSQL backends of the run / the load generator / everything else on the machine except Redis; then the machine-wide busy share of all cores |

Machine of the first run: ${describeMachine(host)}. Rows from another machine say so in \`machine\`.`,
    tableHeader: `| date | commit | machine | dur | conns | rate | accepted/s | p50 | p99 | p99.9 | non-2xx | errors | submit p50 | submit p99 | target: API | target: carrier | during campaign | CPU | file |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
`,
  };
}

export interface OtpRow {
  started: Date;
  revision: Revision;
  machine: Machine;
  figures: OtpBenchFigures;
  /** The CPU cells of the first window (alone) and the second (during the campaign). */
  cpu: string;
  campaignCpu: string;
  file: string;
}

const count = (value: number) => value.toLocaleString('en-US');
const times = (value: number | null) => (value === null ? '' : ` (×${value.toFixed(2)})`);

/** The verdict, the second window's figures, how far the campaign got, the window's CPU. */
export function campaignCell(alone: OtpBenchFigures, campaignCpu: string): string {
  const f = alone.duringCampaign;
  const c = f.campaign;
  const met = duringCampaignVerdict(alone);
  const judged = met === null ? `— (campaign all submitted ${fmt(c.allSubmittedAfterS, 1)} s after its answer, before the window's end)` : verdict(met);
  const latency = `p50 ${fmt(f.latencyMs.p50)}, p99 ${fmt(f.latencyMs.p99)}${times(ratio(f.latencyMs.p99, alone.latencyMs.p99))}, p99.9 ${fmt(f.latencyMs.p999)}`;
  const submit = `submit p50 ${fmt(f.submit.p50Ms)}, p99 ${submitP99Cell(f.submit)}${times(ratio(f.submit.p99Ms, alone.submit.p99Ms))}`;
  const answers = `${fmt(f.acceptedPerSecond, 0)} accepted/s, non-2xx ${non2xxCell(f)}, errors ${f.errors}`;
  const campaign = `campaign parts submitted ${count(c.atWindowStart.partsSubmitted)} → ${count(c.atWindowEnd.partsSubmitted)} of ${count(c.recipients)}`;
  return `${judged}: ${latency}; ${submit}; ${answers}; ${campaign}; CPU ${campaignCpu}`;
}

export function otpReadmeRow({ started, revision: rev, machine: host, figures: f, cpu, campaignCpu, file }: OtpRow): string {
  const verdicts = otpVerdicts(f);
  return tableRow([
    ...runCells(started, rev, host),
    fmt(f.durationS, 1),
    String(f.connections),
    String(f.overallRate),
    fmt(f.acceptedPerSecond, 0),
    fmt(f.latencyMs.p50),
    fmt(f.latencyMs.p99),
    fmt(f.latencyMs.p999),
    non2xxCell(f),
    String(f.errors),
    fmt(f.submit.p50Ms),
    submitP99Cell(f.submit),
    verdicts.api === null ? '—' : verdict(verdicts.api),
    verdict(verdicts.submit),
    campaignCell(f, campaignCpu),
    cpu,
    `[${file}](${file})`,
  ]);
}

/** Writes bench/results/<row.file> and the row in the README's otp section; returns the JSON file's path. */
export function writeOtpResults(resultsDir: string, row: OtpRow, details: object): string {
  return writeResults(resultsDir, row.file, details, otpSection(row.machine), otpReadmeRow(row));
}
