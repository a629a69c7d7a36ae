// The otp benchmark's second window: the same paced OTP load as the first, started as soon as a
// 100,000-recipient campaign from another company has been accepted, so that it runs while the
// dispatcher drains the campaign. How far the campaign got is read afterwards from the rows'
// timestamps, so the benchmark polls nothing while the window runs.
import type { Client } from 'pg';
import { say } from './bench-process';
import type { Bench } from './bench-run';
import { campaignRequest, postCampaign, recipients, simulatorStats, warmUpCampaign, type Posted } from './bulk-campaign';
import { campaignOutcome, campaignProgressAt, type CampaignOutcome } from './campaign-figures';
import { throwIfInterrupted, type Company, type LoadRequest } from './http-load';
import { measureWarm, type LoadOptions, type Measured } from './measure-window';
import type { CampaignDuringWindow } from './otp-results';
import { otpStages, type OtpStages } from './otp-stages';

export const CAMPAIGN_RECIPIENTS = 100_000;
/** The warm-up campaign is followed by polls; the measured one is not. */
const WARMUP_POLL_MS = 500;

/** Everything the second window measured. */
export interface CampaignCase {
  posted: Posted;
  measured: Measured;
  campaign: CampaignDuringWindow;
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
  const stages = await otpStages(db, bench.simulatorUrl, options.companyId as string, measured.window.start, measured.window.end);
  return { posted, measured, campaign, outcomeAfterDrain, simulator: await simulatorStats(bench.simulatorUrl), stages };
}
