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
//   5. the issue's third case (otp-campaign-case.ts): a second company's warm-up campaign, then
//      one of 100,000 recipients, and as soon as it is accepted the same load again while the
//      campaign drains, measured the same way;
//   6. the rest of the campaign cancelled and settled, the load alone once more (A-B-A): the
//      verdict compares the campaign's window with the mean of the two alone windows;
//   7. bench/results/otp-<date>.json, a record in bench/results/runs.jsonl, the README's table.
import { join } from 'node:path';
import { positive, runAdmin, say } from './bench-process';
import {
  APPS,
  createBenchCompany,
  createCompany,
  hostMachine,
  newRun,
  RECEIPT_DELAY_MS,
  withBench,
  type Bench,
  type BenchCompany,
  type Run,
} from './bench-run';
import { stopCampaign, WARMUP_RECIPIENTS } from './bulk-campaign';
import { numbers, throwIfInterrupted, type LoadRequest } from './http-load';
import { DRAIN_TIMEOUT_S, measureLoad, WARMUP_S, windowDetails, type LoadOptions, type Measured } from './measure-window';
import { CAMPAIGN_RECIPIENTS, measureDuringCampaign, type CampaignCase } from './otp-campaign-case';
import { cpuLine, LOAD_GENERATOR, perItem, perItemLine, phaseCost, type Observed } from './phase-observer';
import {
  aloneReference,
  judgedPart,
  MIN_DRAINING_S,
  non2xxCell,
  OTP_TARGETS,
  otpVerdicts,
  ratio,
  type OtpBenchFigures,
  type WhileDraining,
} from './otp-results';
import { otpStages, type OtpStages } from './otp-stages';
import { costCell } from './process-cost';
import { arrivalLine, describeMachine, fileStamp, loadFigures, submitLine, type LoadFigures, type Machine, type Revision } from './results';
import { writeRun } from './run-files';
import { cpuRecord, noteFrom, recordBase, type CpuRecord, type OtpRecord } from './run-records';

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

/** The companies of the run, and the OTP limits as raised. */
interface Prepared {
  company: BenchCompany;
  campaignCompany: BenchCompany;
  limits: RaisedLimits;
}

/** The bench company, with the company's OTP limit and its application's prefix limit raised; the campaign's company. */
async function prepareCompanies(root: string, env: NodeJS.ProcessEnv): Promise<Prepared> {
  const company = await createBenchCompany(root, env);
  say(`raising the company's OTP limit and the application's prefix limit to ${RAISED_LIMIT}`);
  const updated = await runAdmin(root, ['company:update', '--company', company.company_id, '--set', `otp_rate_limit=${RAISED_LIMIT}`], env);
  const app = await runAdmin(root, ['app:update', '--appid', company.appid, '--set', `otp_prefix_limit_per_hour=${RAISED_LIMIT}`], env);
  const limits = {
    otpRateLimitPerMinute: updated['otp_rate_limit'],
    otpPrefixLimitPerHour: (app['settings'] as Record<string, unknown> | undefined)?.['otp_prefix_limit_per_hour'],
  };
  if (limits.otpRateLimitPerMinute !== RAISED_LIMIT || limits.otpPrefixLimitPerHour !== RAISED_LIMIT) {
    throw new Error(`the admin tool did not raise the OTP limits: ${JSON.stringify(limits)}`);
  }
  return { company, campaignCompany: await createCompany(root, env, 'Campaign'), limits };
}

/** The run's settings, as the JSON file holds them. */
function settings(run: OtpRun, limits: RaisedLimits): object {
  return {
    durationS: run.durationS,
    warmupS: WARMUP_S,
    connections: run.connections,
    overallRate: run.overallRate,
    apps: APPS,
    logLevel: 'warn',
    stackEnv: { SMSC_RECEIPT_DELAY_MS: RECEIPT_DELAY_MS, SMSC_LATENCY_MS: 'default (0: each submit_sm answered at once)' },
    request: 'POST /otp/send { appid, recipient }, a different valid number each time',
    limits,
    campaign: {
      company: 'Campaign, a second company',
      recipients: CAMPAIGN_RECIPIENTS,
      warmupRecipients: WARMUP_RECIPIENTS,
      mode: 1,
      batchSize: 'default (1000)',
    },
  };
}

/** The second window's part of the JSON file. */
function campaignDetails(during: CampaignCase): object {
  return {
    campaignId: during.posted.campaignId,
    accept: { status: during.posted.status, ms: during.posted.ms, requestMB: during.posted.requestMB },
    outcomeAfterDrain: during.outcomeAfterDrain,
    simulatorStats: during.simulator,
    stages: during.stages,
    ...windowDetails(during.measured.window),
  };
}

const NOTES = [
  'load: open loop, evenly paced (paced-load.ts): request i leaves at start + i/rate over at most `connections` keep-alive connections, whatever the answers before it did; it runs in this process on the same machine as the platform.',
  'latency: 2xx answers only, counted from the moment each request was due (a stalled server shows in the figures: no coordinated omission), in milliseconds to one decimal.',
  `verdicts.api: p99 ≤ ${OTP_TARGETS.apiP99Ms} ms with at least 95% of the rate accepted per second and every answer 2xx; null at a rate below ${OTP_TARGETS.requestsPerSecond}/s.`,
  'submit: messages.created_at (start of the acceptance transaction) to message_parts.submitted_at (start of the transaction recording the submit_sm_resp), over the bench company’s messages created in the window (its OTPs; the campaign’s messages are another company’s): an upper bound of acceptance → submit_sm.',
  'every OTP is sent by one company and one application, with both OTP limits raised to the admin tool’s maximum.',
  'the run database is ANALYZEd after the warm-up, and again after the warm-up campaign, as a database in service has statistics.',
  `figures.duringCampaign: the same load (same rate, connections and duration, other numbers), started as soon as POST /sms/send-bulk of ${CAMPAIGN_RECIPIENTS} recipients from a second company was answered (no OTP warm-up: the stack is warm from the first window); campaign.atWindowStart / atWindowEnd count its rows by their timestamps at the window’s ends; allSubmittedAfterS: its last part’s submitted_at, if every part was submitted when the window’s OTPs were.`,
  'figures.aloneAgain: the same load alone a third time, after the rest of the campaign was cancelled (POST /sms/campaigns/{id}/cancel) and no batch of it was being dispatched nor any message of it awaited a receipt, with a warm-up as the first window had.',
  `verdicts.duringCampaign: the second window’s API p99 and submit p99 each ≤ ${100 + OTP_TARGETS.duringCampaignMaxWorsePercent}% of the mean of the two alone windows’ (figures and figures.aloneAgain), every window holding the rate with every answer 2xx and every part submitted. When the campaign was all submitted before the second window ended, over figures.duringCampaign.whileDraining instead: the window’s part until its last part’s submitted_at (latency of the requests due before it, acceptance → submit of the OTPs created before it, the rate over that part); null when that part was under ${MIN_DRAINING_S} s.`,
  'duringCampaign’s cpuMsPerMessage, cpu and postgresPerAcceptedMessage count the campaign’s dispatch too, divided by the window’s OTPs.',
  'stages and duringCampaign.stages (otp-stages.ts): where the window’s OTPs waited: messages.created_at → outbox.enqueued_at of their dispatch job → message_parts.submitted_at; and, for a random sample, → the simulator’s received_at (GET /messages?to=), read after the drain, so submitted_at can be checked against the submit_sm’s arrival.',
];

/** An alone window, and where its OTPs waited. */
interface Alone extends Measured {
  stages: OtpStages;
}

/** The run's three windows: alone, during the campaign, alone again. */
interface Windows {
  alone: Alone;
  during: CampaignCase;
  aloneAgain: Alone;
}

/** Everything the JSON file of the run holds. */
function details(run: OtpRun, host: Machine, windows: Windows, figures: OtpBenchFigures, limits: RaisedLimits): object {
  const { alone, during, aloneAgain } = windows;
  return {
    benchmark: 'otp',
    started: run.started.toISOString(),
    revision: run.rev,
    machine: host,
    settings: settings(run, limits),
    figures,
    targets: OTP_TARGETS,
    verdicts: otpVerdicts(figures),
    stages: alone.stages,
    ...windowDetails(alone.window),
    duringCampaign: campaignDetails(during),
    aloneAgain: { stages: aloneAgain.stages, ...windowDetails(aloneAgain.window) },
    notes: NOTES,
  };
}

/** What the run's summary tells, besides the machine and the file. */
interface Outcome {
  figures: OtpBenchFigures;
  cpu: { alone: string; during: string; aloneAgain: string };
  /** Each window's CPU ms per accepted OTP (costCell), then its perItemLine: CPU and context switches per accepted OTP. */
  perOtp: { alone: string; during: string; aloneAgain: string };
  stages: { alone: OtpStages; during: OtpStages; aloneAgain: OtpStages };
}

const met = (value: boolean | null, why: string) => (value === null ? `not judged (${why})` : value ? 'met' : 'NOT met');

/** The stdout lines of one window. */
function windowLines(f: LoadFigures, overallRate: number, stages: OtpStages, cpu: string, perOtp: string): string[] {
  const spread = ({ p50, p99 }: { p50: number | null; p99: number | null }) => `${p50 ?? '—'}/${p99 ?? '—'}`;
  return [
    `  ${f.acceptedPerSecond} accepted/s of ${overallRate}/s asked, over ${f.durationS} s with ${f.connections} connections (${f.accepted} accepted, non-2xx ${non2xxCell(f)}, ${f.errors} errors)`,
    `  latency ms: p50 ${f.latencyMs.p50}, p99 ${f.latencyMs.p99}, p99.9 ${f.latencyMs.p999}, max ${f.latencyMs.max}`,
    submitLine(f.submit, DRAIN_TIMEOUT_S),
    arrivalLine(f.atSimulator),
    `  ms p50/p99: acceptance → job enqueued ${spread(stages.createdToEnqueuedMs)}, enqueued → submitted ${spread(stages.enqueuedToSubmittedMs)}`,
    `  CPU (% of one core): ${cpu}`,
    `  ${perOtp}`,
  ];
}

/** The second window's part until the campaign was all submitted, when it ended inside the window. */
function whileDrainingLines(part: WhileDraining | null): string[] {
  if (part === null) return [];
  const { latencyMs: l, submit } = part;
  return [
    `  its first ${part.spanS} s, until the campaign was all submitted: ${part.accepted} accepted (${part.acceptedPerSecond}/s); latency ms p50 ${l.p50}, p99 ${l.p99}, p99.9 ${l.p999}; acceptance → submit ms p50 ${submit.p50Ms}, p99 ${submit.p99Ms} over ${submit.samples} parts`,
  ];
}

/** The run's lines on stdout. */
function summary({ figures, cpu, perOtp, stages }: Outcome, host: Machine, rev: Revision, path: string): string {
  const verdicts = otpVerdicts(figures);
  const during = figures.duringCampaign;
  const c = during.campaign;
  const part = judgedPart(during);
  const reference = aloneReference(figures);
  const worse =
    part === null ? 'not compared' : `p99 ×${ratio(part.p99Ms, reference.p99Ms) ?? '—'}, submit p99 ×${ratio(part.submitP99Ms, reference.submitP99Ms) ?? '—'}`;
  const spread = reference.aloneAgainRatio;
  const again = figures.aloneAgain;
  const over = part === null || part.partS === null ? 'the whole window' : `the window's first ${part.partS} s, until the campaign was all submitted`;
  return [
    'otp alone:',
    ...windowLines(figures, figures.overallRate, stages.alone, cpu.alone, perOtp.alone),
    `  target API p99 ≤ ${OTP_TARGETS.apiP99Ms} ms at ${OTP_TARGETS.requestsPerSecond}/s: ${met(verdicts.api, 'rate below the target’s')}; to carrier p99 ≤ ${OTP_TARGETS.submitP99Ms} ms: ${met(verdicts.submit, '')}`,
    `otp during a ${CAMPAIGN_RECIPIENTS}-recipient campaign (accepted in ${c.acceptMs} ms; window ${c.windowStartAfterS}–${c.windowEndAfterS} s after):`,
    ...windowLines(during, figures.overallRate, stages.during, cpu.during, perOtp.during),
    `  campaign: parts submitted ${c.atWindowStart.partsSubmitted} at the window's start, ${c.atWindowEnd.partsSubmitted} at its end; all submitted ${c.allSubmittedAfterS ?? '—'} s after its answer`,
    ...whileDrainingLines(during.whileDraining),
    ...(again === null
      ? []
      : [
          'otp alone again, the rest of the campaign cancelled:',
          ...windowLines(again, figures.overallRate, stages.aloneAgain, cpu.aloneAgain, perOtp.aloneAgain),
        ]),
    `  target no more than ${OTP_TARGETS.duringCampaignMaxWorsePercent}% worse over ${over}, against the mean of the alone windows (${worse}): ${met(verdicts.duringCampaign, `the campaign was all submitted under ${MIN_DRAINING_S} s into the window`)}`,
    ...(spread === null ? [] : [`  the alone windows themselves: the second p99 ×${spread.p99 ?? '—'}, submit p99 ×${spread.submitP99 ?? '—'} the first's`]),
    `  machine: ${describeMachine(host)}; commit ${rev.commit}${rev.dirty ? ' (dirty tree)' : ''}`,
    `  written: ${path}, bench/results/runs.jsonl and the table of bench/results/README.md`,
    '',
  ].join('\n');
}

/** A window's CPU as the record keeps it, and its stdout line of CPU ms per OTP. */
function windowCost(window: Observed<unknown>, otps: number, campaignIncluded: boolean): { record: CpuRecord; line: string } {
  const cost = phaseCost(window, otps);
  const per = campaignIncluded ? 'accepted OTP (the campaign’s work included)' : 'accepted OTP';
  return {
    record: cpuRecord(window.cpu, LOAD_GENERATOR, cost),
    line: `CPU ms per ${per}: ${costCell(cost)}\n  ${perItemLine(perItem(window.cpu, otps), per)}`,
  };
}

/** Writes bench/results/otp-<date>.json and the run's record, and prints the summary. */
async function report(bench: Bench, run: OtpRun, windows: Windows, limits: RaisedLimits): Promise<void> {
  const { alone, during, aloneAgain } = windows;
  const figuresOf = (m: Measured) => loadFigures(m.window.result, run.connections, m.submit, m.drainedAfterS, m.atSimulator);
  const [load, duringLoad, againLoad] = [figuresOf(alone), figuresOf(during.measured), figuresOf(aloneAgain)];
  const figures: OtpBenchFigures = {
    ...load,
    overallRate: run.overallRate,
    duringCampaign: { ...duringLoad, campaign: during.campaign, whileDraining: during.whileDraining },
    aloneAgain: againLoad,
  };
  const host = await hostMachine(bench);
  const file = `otp-${fileStamp(run.started)}.json`;
  const cpu = { alone: cpuLine(alone.window.cpu), during: cpuLine(during.measured.window.cpu), aloneAgain: cpuLine(aloneAgain.window.cpu) };
  const costs = {
    alone: windowCost(alone.window, load.accepted, false),
    during: windowCost(during.measured.window, duringLoad.accepted, true),
    aloneAgain: windowCost(aloneAgain.window, againLoad.accepted, false),
  };
  const record: OtpRecord = {
    benchmark: 'otp',
    ...recordBase(run.started, run.rev, host),
    settings: { warmupS: WARMUP_S },
    figures,
    verdicts: otpVerdicts(figures),
    cpu: costs.alone.record,
    cpuDuringCampaign: costs.during.record,
    cpuAloneAgain: costs.aloneAgain.record,
    file,
    ...noteFrom(process.env),
  };
  const path = writeRun(join(run.root, 'bench/results'), details(run, host, windows, figures, limits), record);
  const perOtp = { alone: costs.alone.line, during: costs.during.line, aloneAgain: costs.aloneAgain.line };
  const stages = { alone: alone.stages, during: during.stages, aloneAgain: aloneAgain.stages };
  process.stdout.write(summary({ figures, cpu, perOtp, stages }, host, run.rev, path));
}

/** An alone window: the OTP load after a warm-up; then where its OTPs waited. */
async function measureAlone(bench: Bench, gatewayUrl: string, request: LoadRequest, options: LoadOptions, companyId: string): Promise<Alone> {
  const alone = await measureLoad(bench, gatewayUrl, request, options);
  return { ...alone, stages: await otpStages(bench.db, companyId, alone.window.start, alone.window.end) };
}

export async function runOtpBench(): Promise<void> {
  const base = newRun(process.env);
  const overallRate = Math.round(positive(process.env['BENCH_OTP_RATE'], OTP_TARGETS.requestsPerSecond, 'BENCH_OTP_RATE'));
  // autocannon opens no more connections than requests per second.
  const run: OtpRun = { ...base, connections: Math.min(base.connections, overallRate), overallRate };
  await withBench(
    run,
    (env) => prepareCompanies(run.root, env),
    async (bench, gatewayUrl, { company, campaignCompany, limits }) => {
      // One source of numbers for every OTP and campaign recipient of the run: each is different.
      const next = numbers();
      const request: LoadRequest = { company, path: '/otp/send', body: () => ({ appid: company.appid, recipient: next() }) };
      const options: LoadOptions = { overallRate: run.overallRate, companyId: company.company_id };
      say('first window: the OTP load alone');
      const alone = await measureAlone(bench, gatewayUrl, request, options, company.company_id);
      throwIfInterrupted();
      say('second window: the same OTP load while a campaign drains');
      const during = await measureDuringCampaign(bench, gatewayUrl, request, options, campaignCompany, next);
      throwIfInterrupted();
      say('third window: the OTP load alone again, once the rest of the campaign is cancelled and settled');
      await stopCampaign(bench.db, gatewayUrl, campaignCompany, during.posted.campaignId as string);
      throwIfInterrupted();
      const aloneAgain = await measureAlone(bench, gatewayUrl, request, options, company.company_id);
      await report(bench, run, { alone, during, aloneAgain }, limits);
    },
  );
}
