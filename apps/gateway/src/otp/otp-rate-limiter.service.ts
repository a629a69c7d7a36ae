import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CompanyRepository } from '@mp/persistence';
import { createRedisConnection } from '@mp/queue-runtime';
import { SlidingWindowLimiter, type RateDecision, type RateUsage } from '@mp/rate-limit';
import type Redis from 'ioredis';
import { TtlCache } from '../common/ttl-cache';
import { GatewayEnv } from '../gateway.env';

const MINUTE_MS = 60_000;
const DEFAULT_LIMIT = 20;
/** How long a company's limit is used without reading it again: an operator's change takes effect within this. */
const LIMIT_TTL_MS = 5_000;

/**
 * OTP sends (and resends) per rolling minute per company: 20 unless an operator set another limit
 * (`company:update --set otp_rate_limit=N`). Counted in Redis, so every gateway shares the count.
 */
@Injectable()
export class OtpRateLimiter implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly limiter: SlidingWindowLimiter;
  private readonly limits = new TtlCache<number>(LIMIT_TTL_MS);

  constructor(
    config: GatewayEnv,
    private readonly companies: CompanyRepository,
  ) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-otp-rate');
    this.redis.on('error', () => undefined); // a request that needs Redis answers 503
    this.limiter = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:otp-rate`, MINUTE_MS);
  }

  async take(companyId: string): Promise<RateDecision> {
    return this.limiter.take(companyId, await this.limitOf(companyId));
  }

  async release(companyId: string, slot: string): Promise<void> {
    await this.limiter.release(companyId, slot);
  }

  async usage(companyId: string): Promise<RateUsage> {
    return this.limiter.usage(companyId, await this.limitOf(companyId));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** Read on every send otherwise: cached a few seconds, as the price table is. */
  private async limitOf(companyId: string): Promise<number> {
    const cached = this.limits.get(companyId);
    if (cached !== undefined) return cached;
    const limit = (await this.companies.findById(companyId))?.otpRateLimit ?? DEFAULT_LIMIT;
    this.limits.set(companyId, limit);
    return limit;
  }
}
