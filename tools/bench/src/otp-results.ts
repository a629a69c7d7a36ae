// The OTP benchmark's targets, verdicts, README section and row.
import type { ProgressAt } from './campaign-figures';
import type { ReadmeSection } from './readme-sections';
import {
  describeMachine,
  fmt,
  runCells,
  arrivalMet,
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

/**
 * The part of the second window while the campaign drained, when its last part was submitted
 * before the window ended: the requests due until then, and the OTPs accepted until then.
 */
export interface WhileDraining {
  /** s from the window's start to the campaign's last part submitted. */
  spanS: number;
  accepted: number;
  acceptedPerSecond: number;
  latencyMs: { p50: number; p99: number; p999: number; max: number };
  /** Acceptance → submit of the OTPs accepted in that part. */
  submit: { samples: number; p50Ms: number | null; p99Ms: number | null; maxMs: number | null };
}

/** The same load as alone, started right after the campaign was accepted. */
export interface CampaignCaseFigures extends LoadFigures {
  campaign: CampaignDuringWindow;
  /** null: the campaign drained through the whole window (or the load kept no answer times). */
  whileDraining: WhileDraining | null;
}

/** The shortest part of the second window, while the campaign drained, that the campaign target is judged on. */
export const MIN_DRAINING_S = 10;

export interface OtpBenchFigures extends LoadFigures {
  /** The requests per second asked, over all connections. */
  overallRate: number;
  /** The same load while a 100,000-recipient campaign drains. */
  duringCampaign: CampaignCaseFigures;
  /**
   * The same load alone once more, after the campaign was cancelled and had settled: the second
   * A of an A-B-A design. null: not measured (rows before it existed).
   */
  aloneAgain: LoadFigures | null;
}

export interface OtpVerdicts {
  /** p99 ≤ 15 ms with the rate held and every answer 2xx; null when the run's rate is below the target's. */
  api: boolean | null;
  submit: boolean;
  /**
   * API p99 and submit p99 during the campaign each within 110% of alone, both loads held and clean
   * and every part submitted; over the part of the window before the campaign's last submit when it
   * ended inside the window; null when that part was shorter than MIN_DRAINING_S.
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

/** What the campaign target is judged on: the whole second window, or its part while the campaign drained. */
interface JudgedPart {
  acceptedPerSecond: number;
  p99Ms: number;
  submitP99Ms: number | null;
  /** s of the window judged, when only a part of it was. */
  partS: number | null;
}

/** The whole window if the campaign drained through it; its part while it drained if that lasted MIN_DRAINING_S; else null. */
export function judgedPart(during: CampaignCaseFigures): JudgedPart | null {
  if (drainedThroughWindow(during.campaign)) {
    return { acceptedPerSecond: during.acceptedPerSecond, p99Ms: during.latencyMs.p99, submitP99Ms: during.submit.p99Ms, partS: null };
  }
  const part = during.whileDraining;
  if (part === null || part.spanS < MIN_DRAINING_S) return null;
  return { acceptedPerSecond: part.acceptedPerSecond, p99Ms: part.latencyMs.p99, submitP99Ms: part.submit.p99Ms, partS: part.spanS };
}

/** The load alone, as the campaign case is compared with it. */
export interface AloneReference {
  p99Ms: number;
  submitP99Ms: number | null;
  /**
   * The second alone window's p99 and submit p99 over the first's: how far two windows without a
   * campaign differ on this machine. null without a second alone window.
   */
  aloneAgainRatio: { p99: number | null; submitP99: number | null } | null;
}

const meanOf = (a: number | null, b: number | null) => (a === null || b === null ? null : (a + b) / 2);

/**
 * The mean of the alone windows before and after the campaign (a drift of the host between them
 * cancels out, as it would not against either one), or the first alone, when there is no second.
 */
export function aloneReference(alone: OtpBenchFigures): AloneReference {
  const again = alone.aloneAgain;
  if (again === null) return { p99Ms: alone.latencyMs.p99, submitP99Ms: alone.submit.p99Ms, aloneAgainRatio: null };
  return {
    p99Ms: (alone.latencyMs.p99 + again.latencyMs.p99) / 2,
    submitP99Ms: meanOf(alone.submit.p99Ms, again.submit.p99Ms),
    aloneAgainRatio: { p99: ratio(again.latencyMs.p99, alone.latencyMs.p99), submitP99: ratio(again.submit.p99Ms, alone.submit.p99Ms) },
  };
}

/** Every alone window held the rate, cleanly, with every part submitted. */
function aloneClean(alone: OtpBenchFigures): boolean {
  return [alone, alone.aloneAgain].every((f) => f === null || (held(f, alone.overallRate) && f.submit.notSubmittedAtEnd === 0));
}

export function duringCampaignVerdict(alone: OtpBenchFigures): boolean | null {
  const during = alone.duringCampaign;
  const part = judgedPart(during);
  if (part === null) return null;
  if (!aloneClean(alone) || !held({ ...during, acceptedPerSecond: part.acceptedPerSecond }, alone.overallRate)) return false;
  if (during.submit.notSubmittedAtEnd > 0) return false;
  const reference = aloneReference(alone);
  return noWorse(part.p99Ms, reference.p99Ms) && noWorse(part.submitP99Ms, reference.submitP99Ms);
}

export function otpVerdicts(figures: OtpBenchFigures): OtpVerdicts {
  return {
    api: figures.overallRate < OTP_TARGETS.requestsPerSecond ? null : held(figures, figures.overallRate) && figures.latencyMs.p99 <= OTP_TARGETS.apiP99Ms,
    submit: arrivalMet(figures.atSimulator, OTP_TARGETS.submitP99Ms),
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
settings above in every window (the bulk benchmark's 1 ms answers and 50 ms receipts would change
the first window's conditions), so that the windows differ only by the campaign.

Then what is left of the campaign is cancelled (\`POST /sms/campaigns/{id}/cancel\`), and once none
of its batches is being dispatched and none of its messages awaits a receipt, the load runs alone a
third time, warm-up included (from 2026-11-26: an A-B-A design). Two windows of the same load on
this shared machine differ by themselves: at a campaign pace of 1 part a second (29 parts in the
window) three runs read ×1.02, ×1.12 and ×1.23 against the first window. The campaign is compared
with the mean of the windows before and after it, which cancels a drift of the host between them,
and the third window's ratio to the first shows each run's own spread.`;

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
| target: carrier | the issue's target, submit_sm within ${OTP_TARGETS.submitP99Ms} ms at p99, then the figure it is judged on: acceptance (\`messages.created_at\`) → the message's arrival at the SMSC simulator (its \`received_at\`, joined on the carrier's message id), over every OTP accepted in the window, all of which must have arrived. Rows before 2026-11-25 18:45 UTC judged it on \`submit p99\` and show no figure |
| during campaign | the issue's target, no more than ${OTP_TARGETS.duringCampaignMaxWorsePercent}% worse while a 100,000-recipient campaign drains: met when the second window's p99 and submit p99 are each within ${100 + OTP_TARGETS.duringCampaignMaxWorsePercent}% of the mean of the two alone windows' (of the first window's in rows before 2026-11-26), every window held the rate with every answer 2xx, and every part of each was submitted. When the campaign was all submitted before the second window ended, it is judged over the window's part until then (the requests due before the campaign's last part was submitted, the OTPs accepted before it), if that part lasted at least ${MIN_DRAINING_S} s; the cell then gives that part's figures first ("over the window's first … s"), then the whole window's. \`—\`: the campaign was all submitted under ${MIN_DRAINING_S} s into the window (rows before 2026-11-25 07:30 UTC: before the window ended, the part not measured). Then the second window's figures as in the columns before (×: its ratio to what it is judged against), the campaign's parts submitted by the window's start → end, the third window's p99 and submit p99 ("alone again", with their ratios to the first window's), and the second window's CPU as in the CPU column. Rows before bulk campaigns existed (up to commit e667c8c): ${CAMPAIGN_NOT_MEASURED} |
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

/** The verdict, and over which part of the window it was judged. */
function judgedText(alone: OtpBenchFigures): string {
  const f = alone.duringCampaign;
  const met = duringCampaignVerdict(alone);
  const drainedAfter = `campaign all submitted ${fmt(f.campaign.allSubmittedAfterS, 1)} s after its answer`;
  if (met === null) return `— (${drainedAfter}, ${fmt(f.whileDraining?.spanS ?? null, 1)} s into the window: under the ${MIN_DRAINING_S} s judged)`;
  const part = f.whileDraining;
  if (judgedPart(f)?.partS === null || part === null) return verdict(met);
  const reference = aloneReference(alone);
  const latency = `p50 ${fmt(part.latencyMs.p50)}, p99 ${fmt(part.latencyMs.p99)}${times(ratio(part.latencyMs.p99, reference.p99Ms))}, p99.9 ${fmt(part.latencyMs.p999)}`;
  const submit = `submit p50 ${fmt(part.submit.p50Ms)}, p99 ${fmt(part.submit.p99Ms)}${times(ratio(part.submit.p99Ms, reference.submitP99Ms))}`;
  return `${verdict(met)} over the window's first ${fmt(part.spanS, 1)} s (${drainedAfter}): ${latency}; ${submit}; ${fmt(part.acceptedPerSecond, 0)} accepted/s; whole window`;
}

/** The verdict, the second window's figures, how far the campaign got, the window's CPU. */
export function campaignCell(alone: OtpBenchFigures, campaignCpu: string): string {
  const f = alone.duringCampaign;
  const c = f.campaign;
  const reference = aloneReference(alone);
  const latency = `p50 ${fmt(f.latencyMs.p50)}, p99 ${fmt(f.latencyMs.p99)}${times(ratio(f.latencyMs.p99, reference.p99Ms))}, p99.9 ${fmt(f.latencyMs.p999)}`;
  const submit = `submit p50 ${fmt(f.submit.p50Ms)}, p99 ${submitP99Cell(f.submit)}${times(ratio(f.submit.p99Ms, reference.submitP99Ms))}`;
  const answers = `${fmt(f.acceptedPerSecond, 0)} accepted/s, non-2xx ${non2xxCell(f)}, errors ${f.errors}`;
  const campaign = `campaign parts submitted ${count(c.atWindowStart.partsSubmitted)} → ${count(c.atWindowEnd.partsSubmitted)} of ${count(c.recipients)}`;
  return `${judgedText(alone)}: ${latency}; ${submit}; ${answers}; ${campaign}; ${aloneAgainText(alone)}CPU ${campaignCpu}`;
}

/** The second alone window against the first: the spread of two windows without a campaign. */
export function aloneAgainText(alone: OtpBenchFigures): string {
  const again = alone.aloneAgain;
  const spread = aloneReference(alone).aloneAgainRatio;
  if (again === null || spread === null) return '';
  const ratios = `×${fmt(spread.p99, 2)} and ×${fmt(spread.submitP99, 2)} the first's`;
  return `alone again after it: p99 ${fmt(again.latencyMs.p99)}, submit p99 ${submitP99Cell(again.submit)} (${ratios}); `;
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
    carrierCell(f, verdicts.submit),
    campaignCell(f, campaignCpu),
    cpu,
    `[${file}](${file})`,
  ]);
}

/** The carrier verdict and the p99 at the simulator it was judged on. */
function carrierCell(f: OtpBenchFigures, met: boolean): string {
  const { atSimulator } = f;
  if (atSimulator === null) return `${verdict(met)} (the simulator could not be read)`;
  const missing = atSimulator.messages - atSimulator.arrived;
  return `${verdict(met)} (at the simulator p99 ${fmt(atSimulator.p99Ms)}${missing > 0 ? `, ${missing} not there` : ''})`;
}

/** Writes bench/results/<row.file> and the row in the README's otp section; returns the JSON file's path. */
export function writeOtpResults(resultsDir: string, row: OtpRow, details: object): string {
  return writeResults(resultsDir, row.file, details, otpSection(row.machine), otpReadmeRow(row));
}
