import { HttpStatus, Injectable } from '@nestjs/common';
import type { ApplicationSettings } from '@mp/accounts-domain';
import { ApiError } from '@mp/http-kit';
import { OtpJournal } from '@mp/otp';
import { numberPrefix } from '@mp/otp-domain';
import type { SlidingWindowLimiter, WindowTake } from '@mp/rate-limit';
import { OtpRateLimiter } from './otp-rate-limiter.service';

const HOUR_MS = 3_600_000;

export interface FraudCheck {
  companyId: string;
  application: { id: string; settings: ApplicationSettings };
  recipient: string;
  /** ISO 3166 alpha-2 of the number, as the numbering plan says; null when it cannot tell. */
  country: string | null;
}

/**
 * Per application, before anything is charged or sent: destinations only in the allowed countries
 * (every country unless an operator narrowed them), and at most `otp_prefix_limit_per_hour` sends
 * per number prefix (the number without its last four digits), which stops a pumping attack on a
 * range of premium numbers. Each refusal is recorded in /otp/logs. The prefix's slot is taken
 * with the company's rate-limit slot, in one step (OtpRateLimiter.take).
 */
@Injectable()
export class OtpFraudGuard {
  private readonly prefixes: SlidingWindowLimiter;

  constructor(
    limiter: OtpRateLimiter,
    private readonly journal: OtpJournal,
  ) {
    this.prefixes = limiter.window('otp-prefix', HOUR_MS);
  }

  /** Refuses (403) a destination country the application does not allow; else the prefix window the send must take a slot of. */
  async admit(check: FraudCheck): Promise<WindowTake> {
    const allowed = check.application.settings.allowed_countries;
    if (allowed !== null && (check.country === null || !allowed.includes(check.country))) {
      await this.refused(check, { reason: 'country', country: check.country });
      throw new ApiError(HttpStatus.FORBIDDEN, `Destination country ${check.country ?? 'unknown'} is not allowed for this application`);
    }
    return {
      limiter: this.prefixes,
      key: `${check.application.id}:${numberPrefix(check.recipient)}`,
      limit: check.application.settings.otp_prefix_limit_per_hour,
    };
  }

  /** The refusal (429) of a send whose prefix window was full, recorded in /otp/logs. */
  async prefixRefusal(check: FraudCheck, limit: number, retryAfterMs: number): Promise<ApiError> {
    const prefix = numberPrefix(check.recipient);
    await this.refused(check, { reason: 'prefix-velocity', prefix, limit });
    const retryAfter = Math.ceil(retryAfterMs / 1000);
    return new ApiError(
      HttpStatus.TOO_MANY_REQUESTS,
      `Too many OTPs to numbers starting ${prefix} this hour; try again in ${retryAfter} seconds`,
      { retry_after: retryAfter },
      { 'Retry-After': String(retryAfter) },
    );
  }

  private async refused(check: FraudCheck, detail: Record<string, unknown>): Promise<void> {
    const subject = { otpId: null, companyId: check.companyId, applicationId: check.application.id, recipient: check.recipient };
    await this.journal.recordEvent(subject, 'refused', new Date(), detail);
  }
}
