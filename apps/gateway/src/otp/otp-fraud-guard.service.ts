import { HttpStatus, Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { ApplicationSettings } from '@mp/accounts-domain';
import { ApiError } from '@mp/http-kit';
import { recordOtpEvent } from '@mp/otp';
import { numberPrefix } from '@mp/otp-domain';
import { createRedisConnection } from '@mp/queue-runtime';
import { SlidingWindowLimiter } from '@mp/rate-limit';
import type Redis from 'ioredis';
import { DataSource } from 'typeorm';
import { GatewayEnv } from '../gateway.env';

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
 * range of premium numbers. Each refusal is recorded in /otp/logs.
 */
@Injectable()
export class OtpFraudGuard implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly prefixes: SlidingWindowLimiter;

  constructor(
    config: GatewayEnv,
    private readonly db: DataSource,
  ) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-otp-fraud');
    this.redis.on('error', () => undefined); // a request that needs Redis answers 503
    this.prefixes = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:otp-prefix`, HOUR_MS);
  }

  /** Admits the send or throws its refusal; the answer gives back the prefix slot if the send then fails. */
  async admit(check: FraudCheck): Promise<() => Promise<void>> {
    const allowed = check.application.settings.allowed_countries;
    if (allowed !== null && (check.country === null || !allowed.includes(check.country))) {
      await this.refused(check, { reason: 'country', country: check.country });
      throw new ApiError(HttpStatus.FORBIDDEN, `Destination country ${check.country ?? 'unknown'} is not allowed for this application`);
    }
    const prefix = numberPrefix(check.recipient);
    const key = `${check.application.id}:${prefix}`;
    const slot = await this.prefixes.take(key, check.application.settings.otp_prefix_limit_per_hour);
    if (!slot.allowed) {
      await this.refused(check, { reason: 'prefix-velocity', prefix, limit: slot.limit });
      const retryAfter = Math.ceil(slot.retryAfterMs / 1000);
      throw new ApiError(
        HttpStatus.TOO_MANY_REQUESTS,
        `Too many OTPs to numbers starting ${prefix} this hour; try again in ${retryAfter} seconds`,
        { retry_after: retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
    return () => this.prefixes.release(key, slot.slot);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private async refused(check: FraudCheck, detail: Record<string, unknown>): Promise<void> {
    const subject = { otpId: null, companyId: check.companyId, applicationId: check.application.id, recipient: check.recipient };
    await recordOtpEvent(this.db.manager, subject, 'refused', new Date(), detail);
  }
}
