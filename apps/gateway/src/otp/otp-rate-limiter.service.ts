import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CompanyRepository } from '@mp/accounts';
import { createRedisConnection, type RedisConnection } from '@mp/queue-runtime';
import { releaseAll, SlidingWindowLimiter, takeAll, type RateUsage, type WindowTake } from '@mp/rate-limit';
import { LoadingCache } from '../common/loading-cache';
import { GatewayEnv } from '../gateway.env';

const MINUTE_MS = 60_000;
const DEFAULT_LIMIT = 20;
/** How long a company's limit is used without reading it again: an operator's change takes effect within this. */
const LIMIT_TTL_MS = 5_000;

/** A send's slots, taken in every window it counts in, or the window that refused it. */
export type SendSlot =
  | { allowed: true; release: () => Promise<void> }
  | {
      allowed: false;
      /** The refusing window: the company's minute, or one of the `also` windows given, by index. */ refusedBy: 'company' | number;
      limit: number;
      retryAfterMs: number;
    };

/**
 * OTP sends (and resends) per rolling minute per company: 20 unless an operator set another limit
 * (`company:update --set otp_rate_limit=N`). Counted in Redis, so every gateway shares the count.
 * Other windows a send counts in (the fraud guard's prefix velocity) are taken in the same atomic
 * step, one round trip: `window` makes them on this limiter's Redis connection.
 */
@Injectable()
export class OtpRateLimiter implements OnApplicationShutdown {
  private readonly redis: RedisConnection;
  private readonly companyWindow: SlidingWindowLimiter;
  private readonly limits = new LoadingCache<number>({ ttlMs: LIMIT_TTL_MS });
  private readonly prefix: string;

  constructor(
    config: GatewayEnv,
    private readonly companies: CompanyRepository,
  ) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-otp-limits');
    this.redis.on('error', () => undefined); // a request that needs Redis answers 503
    this.prefix = config.QUEUE_PREFIX;
    this.companyWindow = this.window('otp-rate', MINUTE_MS);
  }

  /** A rolling window of `windowMs` under `name`, on the connection takes are made on. */
  window(name: string, windowMs: number): SlidingWindowLimiter {
    return new SlidingWindowLimiter(this.redis, `${this.prefix}:${name}`, windowMs);
  }

  /** A slot of the company's minute and of each `also` window, all or none. */
  async take(companyId: string, also: readonly WindowTake[] = []): Promise<SendSlot> {
    const takes = [...also, { limiter: this.companyWindow, key: companyId, limit: await this.limitOf(companyId) }];
    const decision = await takeAll(takes);
    if (decision.allowed) return { allowed: true, release: () => releaseAll(takes, decision.slot) };
    const refusedBy = decision.refused === takes.length - 1 ? 'company' : decision.refused;
    return { allowed: false, refusedBy, limit: decision.limit, retryAfterMs: decision.retryAfterMs };
  }

  async usage(companyId: string): Promise<RateUsage> {
    return this.companyWindow.usage(companyId, await this.limitOf(companyId));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /** Read on every send otherwise: cached a few seconds, as the price table is. */
  private async limitOf(companyId: string): Promise<number> {
    const limit = await this.limits.get(companyId, async () => (await this.companies.findById(companyId))?.otpRateLimit ?? DEFAULT_LIMIT);
    return limit ?? DEFAULT_LIMIT;
  }
}
