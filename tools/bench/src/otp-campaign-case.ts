// The otp benchmark's second window: the same paced OTP load as the first, started as soon as a
// 100,000-recipient campaign from another company has been accepted, so that it runs while the
// dispatcher drains the campaign. How far the campaign got is read afterwards from the rows'
// timestamps, so the benchmark polls nothing while the window runs.
import type { Client } from 'pg';
import { say } from './bench-process';
import type { Bench } from './bench-run';
import { campaignRequest, postCampaign, recipients, simulatorStats, warmUpCampaign, type Posted } from './bulk-campaign';
import { campaignOutcome, campaignProgressAt, type CampaignOutcome } from './campaign-figures';
import { submitFigures } from './database-figures';
import { throwIfInterrupted, type Company, type LoadRequest } from './http-load';
import { measureWarm, type LoadOptions, type Measured } from './measure-window';
import { drainedThroughWindow, MIN_DRAINING_S, type CampaignDuringWindow, type WhileDraining } from './otp-results';
import { answeredBefore } from './paced-load';
import { otpStages, type OtpStages } from './otp-stages';

export const CAMPAIGN_RECIPIENTS = 100_000;
/** The warm-up campaign is followed by polls; the measured one is not. */
const WARMUP_POLL_MS = 500;

/** Everything the second window measured. */
export interface CampaignCase {
  posted: Posted;
  measured: Measured;
  campaign: CampaignDuringWindow;
  whileDraining: WhileDraining | null;
  /** The campaign's state once the window's OTPs were all submitted (or given up on). */
  outcomeAfterDrain: CampaignOutcome;
  simulator: Record<string, number> | null;
  stages: OtpStages;
}

/** Where the window stands against the campaign: when it started and ended after the answer, how far the campaign had got at each end. */
async function campaignDuringWindow(db: Client, posted: Posted, measured: Measured, outcome: CampaignOutcome): Promise<CampaignDuringWindow> {
  const campaignId = posted.campaignId as string;
  const after = (at: Date) => Math.round((at.getTime() - posted.answeredAt.getTime()) / 100) / 10;
  const allSubmitted = outcome.messages === posted.recipients && outcome.submittedParts === outcome.parts;
  return {
    recipients: posted.recipients,
    acceptMs: posted.ms,
    windowStartAfterS: after(measured.window.start),
    windowEndAfterS: after(measured.window.end),
    atWindowStart: await campaignProgressAt(db, campaignId, measured.window.start),
    atWindowEnd: await campaignProgressAt(db, campaignId, measured.window.end),
    allSubmittedAfterS: allSubmitted ? outcome.lastSubmittedAfterS : null,
  };
}

/**
 * When the campaign's last part was submitted inside the window: the window's part until then,
 * the requests due before it and `companyId`'s OTPs accepted before it. Otherwise null.
 */
async function whileDraining(db: Client, posted: Posted, measured: Measured, campaign: CampaignDuringWindow, companyId: string): Promise<WhileDraining | null> {
  const times = measured.window.result.answerTimes;
  const { start } = measured.window;
  if (times === undefined || campaign.allSubmittedAfterS === null || drainedThroughWindow(campaign)) return null;
  const until = new Date(posted.answeredAt.getTime() + campaign.allSubmittedAfterS * 1000);
  const spanS = Math.max(0, (until.getTime() - start.getTime()) / 1000);
  const { accepted, latency } = answeredBefore(times, until.getTime());
  const submit = await submitFigures(db, start, until, companyId);
  return {
    spanS: Math.round(spanS * 10) / 10,
    accepted,
    acceptedPerSecond: spanS === 0 ? 0 : Math.round(accepted / spanS),
    latencyMs: { p50: latency.p50, p99: latency.p99, p999: latency.p99_9, max: latency.max },
    submit: { samples: submit.samples, p50Ms: submit.p50Ms, p99Ms: submit.p99Ms, maxMs: submit.maxMs },
  };
}

/**
 * A warm-up campaign followed to its end and ANALYZE, then the 100,000 (recipients from `next`),
 * then at once the measured window of `request` with `options` (as the first window's), its drain
 * and acceptance → submit of its OTPs only.
 */
export async function measureDuringCampaign(
  bench: Bench,
  gatewayUrl: string,
  request: LoadRequest,
  options: LoadOptions,
  campaignCompany: Company,
  next: () => string,
): Promise<CampaignCase> {
  const { db } = bench;
  await warmUpCampaign(db, gatewayUrl, campaignCompany, next, WARMUP_POLL_MS);
  throwIfInterrupted();
  const body = campaignRequest(recipients(CAMPAIGN_RECIPIENTS, next));
  say(`accepting a campaign of ${CAMPAIGN_RECIPIENTS} recipients (${body.requestMB} MB), then the same OTP load while it drains`);
  const posted = await postCampaign(gatewayUrl, campaignCompany, body);
  if (!posted.campaignId) throw new Error(`POST /sms/send-bulk of ${CAMPAIGN_RECIPIENTS} answered ${posted.status}: ${posted.error}`);
  const measured = await measureWarm(bench, gatewayUrl, request, options);
  const outcomeAfterDrain = await campaignOutcome(db, posted.campaignId, posted.answeredAt);
  const campaign = await campaignDuringWindow(db, posted, measured, outcomeAfterDrain);
  say(`campaign parts submitted: ${campaign.atWindowStart.partsSubmitted} at the window's start, ${campaign.atWindowEnd.partsSubmitted} at its end`);
  const companyId = options.companyId as string;
  const part = await whileDraining(db, posted, measured, campaign, companyId);
  if (part !== null)
    say(`the campaign was all submitted ${part.spanS} s into the window: the target is judged over that part if it is at least ${MIN_DRAINING_S} s`);
  const stages = await otpStages(db, companyId, measured.window.start, measured.window.end);
  return { posted, measured, campaign, whileDraining: part, outcomeAfterDrain, simulator: await simulatorStats(bench.simulatorUrl), stages };
}
