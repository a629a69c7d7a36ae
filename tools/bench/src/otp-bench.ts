// `npm run bench -- otp`: how fast POST /otp/send answers at a fixed rate on this machine, and how
// soon the dispatcher submits the codes to the carrier. It measures and reports; it changes nothing.
//
//   1. a throwaway database and Redis prefix; one company with a large balance, its OTP limit and
//      its application's prefix limit raised with the admin tool, so that no send is refused;
//   2. the same stack as the sms benchmark (bench-run.ts);
//   3. an evenly paced open-loop load (paced-load.ts) at BENCH_OTP_RATE (500) requests/s over at
//      most BENCH_CONNECTIONS (64) connections for BENCH_DURATION_S (30) seconds after a short
//      warm-up, each request an OTP to a different valid number;
//   4. acceptance → submit from the database, CPU per process, PostgreSQL's work, as for sms;
//   5. the third case, the same while a 100,000-recipient campaign drains, is recorded as
//      not measured until bulk campaigns exist;
//   6. bench/results/otp-<date>.json and a row in the otp section of bench/results/README.md.
import { join } from 'node:path';
import { positive, runAdmin, say } from './bench-process';
import { APPS, createBenchCompany, hostMachine, newRun, RECEIPT_DELAY_MS, withBench, type Bench, type BenchCompany, type Run } from './bench-run';
import { numbers, type LoadRequest } from './http-load';
import { DRAIN_TIMEOUT_S, measureLoad, WARMUP_S, windowDetails, type Measured } from './measure-window';
import { cpuLine } from './phase-observer';
import { CAMPAIGN_NOT_MEASURED, non2xxCell, OTP_TARGETS, otpVerdicts, writeOtpResults, type OtpBenchFigures, type OtpVerdicts } from './otp-results';
import { describeMachine, fileStamp, loadFigures, submitLine, type Machine, type Revision } from './results';

/** The highest value the admin tool takes for either limit. */
const RAISED_LIMIT = 1_000_000;

/** The limits as the admin tool answered after raising them. */
interface RaisedLimits {
  otpRateLimitPerMinute: unknown;
  otpPrefixLimitPerHour: unknown;
}

interface OtpRun extends Run {
  overallRate: number;
}

/** The bench company, with the company's OTP limit and its application's prefix limit raised. */
async function prepareOtpCompany(root: string, env: NodeJS.ProcessEnv): Promise<{ company: BenchCompany; limits: RaisedLimits }> {
  const company = await createBenchCompany(root, env);
  say(`raising the company's OTP limit and the application's prefix limit to ${RAISED_LIMIT}`);
  const updated = await runAdmin(root, ['company:update', '--company', company.company_id, '--set', `otp_rate_limit=${RAISED_LIMIT}`], env);
  const app = await runAdmin(root, ['app:update', '--appid', company.appid, '--set', `otp_prefix_limit_per_hour=${RAISED_LIMIT}`], env);
  const limits = { otpRateLimitPerMinute: updated['otp_rate_limit'], otpPrefixLimitPerHour: (app['settings'] as Record<string, unknown> | undefined)?.['otp_prefix_limit_per_hour'] };
  if (limits.otpRateLimitPerMinute !== RAISED_LIMIT || limits.otpPrefixLimitPerHour !== RAISED_LIMIT) {
    throw new Error(`the admin tool did not raise the OTP limits: ${JSON.stringify(limits)}`);
  }
  return { company, limits };
}

/** Everything the JSON file of the run holds. */
function details(run: OtpRun, host: Machine, measured: Measured, figures: OtpBenchFigures, verdicts: OtpVerdicts, limits: RaisedLimits): object {
  return {
    benchmark: 'otp',
    started: run.started.toISOString(),
    revision: run.rev,
    machine: host,
    settings: {
      durationS: run.durationS,
      warmupS: WARMUP_S,
      connections: run.connections,
      overallRate: run.overallRate,
      apps: APPS,
      logLevel: 'warn',
      receiptDelayMs: RECEIPT_DELAY_MS,
      request: 'POST /otp/send { appid, recipient }, a different valid number each time',
      limits,
    },
    figures,
    targets: OTP_TARGETS,
    verdicts,
    ...windowDetails(measured.window),
    notes: [
      `during a campaign: ${CAMPAIGN_NOT_MEASURED}; figures.duringCampaign and verdicts.duringCampaign stay null until a 100,000-recipient campaign can drain during the run.`,
      'load: open loop, evenly paced (paced-load.ts): request i leaves at start + i/rate over at most `connections` keep-alive connections, whatever the answers before it did; it runs in this process on the same machine as the platform.',
      'latency: 2xx answers only, counted from the moment each request was due (a stalled server shows in the figures: no coordinated omission), in milliseconds to one decimal.',
      `verdicts.api: p99 ≤ ${OTP_TARGETS.apiP99Ms} ms with at least 95% of the rate accepted per second and every answer 2xx; null at a rate below ${OTP_TARGETS.requestsPerSecond}/s.`,
      'submit: messages.created_at (start of the acceptance transaction) to message_parts.submitted_at (start of the transaction recording the submit_sm_resp), over every message created in the window (all OTPs here): an upper bound of acceptance → submit_sm.',
      'every request is sent by one company and one application, with both OTP limits raised to the admin tool’s maximum.',
      'the run database is ANALYZEd after the warm-up, as a database in service has statistics.',
    ],
  };
}

/** The run's lines on stdout. */
function summary(figures: OtpBenchFigures, verdicts: OtpVerdicts, host: Machine, rev: Revision, cpu: string, path: string): string {
  const met = (value: boolean | null) => (value === null ? 'not judged (rate below the target’s)' : value ? 'met' : 'NOT met');
  return [
    `otp: ${figures.acceptedPerSecond} accepted/s of ${figures.overallRate}/s asked, over ${figures.durationS} s with ${figures.connections} connections (${figures.accepted} accepted, non-2xx ${non2xxCell(figures)}, ${figures.errors} errors)`,
    `  latency ms: p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, p99.9 ${figures.latencyMs.p999}, max ${figures.latencyMs.max}`,
    submitLine(figures.submit, DRAIN_TIMEOUT_S),
    `  target API p99 ≤ ${OTP_TARGETS.apiP99Ms} ms at ${OTP_TARGETS.requestsPerSecond}/s: ${met(verdicts.api)}; to carrier p99 ≤ ${OTP_TARGETS.submitP99Ms} ms: ${met(verdicts.submit)}`,
    `  during a 100,000-recipient campaign: ${CAMPAIGN_NOT_MEASURED}`,
    `  CPU (% of one core): ${cpu}`,
    `  machine: ${describeMachine(host)}; commit ${rev.commit}${rev.dirty ? ' (dirty tree)' : ''}`,
    `  written: ${path} and bench/results/README.md`,
    '',
  ].join('\n');
}

/** Writes bench/results/otp-<date>.json and the README row, and prints the summary. */
async function report(bench: Bench, run: OtpRun, measured: Measured, limits: RaisedLimits): Promise<void> {
  const load = loadFigures(measured.window.result, run.connections, measured.submit, measured.drainedAfterS);
  const figures: OtpBenchFigures = { ...load, overallRate: run.overallRate, duringCampaign: null };
  const host = await hostMachine(bench);
  const file = `otp-${fileStamp(run.started)}.json`;
  const verdicts = otpVerdicts(figures);
  const cpu = cpuLine(measured.window.cpu);
  const row = { started: run.started, revision: run.rev, machine: host, figures, cpu, file };
  const path = writeOtpResults(join(run.root, 'bench/results'), row, details(run, host, measured, figures, verdicts, limits));
  process.stdout.write(summary(figures, verdicts, host, run.rev, cpu, path));
}

export async function runOtpBench(): Promise<void> {
  const base = newRun(process.env);
  const overallRate = Math.round(positive(process.env['BENCH_OTP_RATE'], OTP_TARGETS.requestsPerSecond, 'BENCH_OTP_RATE'));
  // autocannon opens no more connections than requests per second.
  const run: OtpRun = { ...base, connections: Math.min(base.connections, overallRate), overallRate };
  await withBench(
    run,
    (env) => prepareOtpCompany(run.root, env),
    async (bench, gatewayUrl, { company, limits }) => {
      const nextNumber = numbers();
      const request: LoadRequest = { company, path: '/otp/send', body: () => ({ appid: company.appid, recipient: nextNumber() }) };
      await report(bench, run, await measureLoad(bench, gatewayUrl, request, run.overallRate), limits);
    },
  );
}
