// The OTP benchmark's targets, verdicts, README section and row.
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

/** Why the campaign case has no figures yet. */
export const CAMPAIGN_NOT_MEASURED = 'not measured (bulk not built yet)';

export interface OtpBenchFigures extends LoadFigures {
  /** The requests per second asked, over all connections. */
  overallRate: number;
  /** The same figures while a 100,000-recipient campaign drains: null until bulk campaigns exist. */
  duringCampaign: null;
}

export interface OtpVerdicts {
  /** p99 ≤ 15 ms with the rate held and every answer 2xx; null when the run's rate is below the target's. */
  api: boolean | null;
  submit: boolean;
  /** No more than 10% worse during a campaign: null, not measured. */
  duringCampaign: null;
}

export function otpVerdicts(figures: OtpBenchFigures): OtpVerdicts {
  const rateHeld = figures.acceptedPerSecond >= figures.overallRate * RATE_HELD;
  const clean = figures.non2xx === 0 && figures.errors === 0 && figures.timeouts === 0;
  return {
    api: figures.overallRate < OTP_TARGETS.requestsPerSecond ? null : rateHeld && clean && figures.latencyMs.p99 <= OTP_TARGETS.apiP99Ms,
    submit: submitMet(figures.submit, OTP_TARGETS.submitP99Ms),
    duringCampaign: null,
  };
}

/** `0`, or the count and the answers it is made of: `12 (429: 10, 503: 2)`. */
export function non2xxCell(figures: Pick<LoadFigures, 'non2xx' | 'statusCodes'>): string {
  if (figures.non2xx === 0) return '0';
  const codes = Object.entries(figures.statusCodes).filter(([code]) => !code.startsWith('2'));
  return `${figures.non2xx} (${codes.map(([code, count]) => `${code}: ${count}`).join(', ')})`;
}

export function otpSection(host: Machine): ReadmeSection {
  return {
    name: 'otp',
    heading: '## otp — POST /otp/send at a fixed rate',
    body: `The same stack as the sms benchmark (gateway, sms-dispatcher, SMSC simulator with receipts after
1 s, throwaway database and Redis key prefix, \`LOG_LEVEL=warn\`), with the bench company's OTP
limit (\`otp_rate_limit\`) and its application's \`otp_prefix_limit_per_hour\` raised to 1,000,000
with the admin tool, so that no send is refused. An open-loop load evenly paced at \`rate\`
requests per second (request i leaves at start + i/rate, whatever the answers before it did) over
at most \`conns\` keep-alive connections for \`dur\` seconds after a short warm-up at the same
rate, each \`POST /otp/send { appid, recipient }\` to a different valid number. Rows before the
paced load (commit b84b3e5) used autocannon's fixed rate, which sends each second's requests in a
burst at its start.

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
| during campaign | the issue's target, no more than ${OTP_TARGETS.duringCampaignMaxWorsePercent}% worse while a 100,000-recipient campaign drains; ${CAMPAIGN_NOT_MEASURED} |
| CPU | percent of one core over the window: gateway / sms-dispatcher / simulator / PostgreSQL backends of the run / the load generator / everything else on the machine except Redis; then the machine-wide busy share of all cores |

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
  cpu: string;
  file: string;
}

export function otpReadmeRow({ started, revision: rev, machine: host, figures: f, cpu, file }: OtpRow): string {
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
    CAMPAIGN_NOT_MEASURED,
    cpu,
    `[${file}](${file})`,
  ]);
}

/** Writes bench/results/<row.file> and the row in the README's otp section; returns the JSON file's path. */
export function writeOtpResults(resultsDir: string, row: OtpRow, details: object): string {
  return writeResults(resultsDir, row.file, details, otpSection(row.machine), otpReadmeRow(row));
}
