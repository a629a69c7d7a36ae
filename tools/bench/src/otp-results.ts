// The OTP benchmark's targets and verdicts.
import type { ProgressAt } from './campaign-figures';
import { arrivalMet, type LoadFigures } from './results';

/** The issue's targets for POST /otp/send on one machine. */
export const OTP_TARGETS = { requestsPerSecond: 500, apiP99Ms: 15, submitP99Ms: 50, duringCampaignMaxWorsePercent: 10 } as const;

/** A run holds the rate if it accepts at least this share of it per second. */
const RATE_HELD = 0.95;

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
