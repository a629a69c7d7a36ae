import { HttpStatus, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { SIGN_IN_FAILURE_LIMITS, signInLockedMessage } from '@mp/accounts-domain';
import { ApiError } from '@mp/http-kit';
import { createRedisConnection, type RedisConnection } from '@mp/queue-runtime';
import { firstFullWindow, SlidingWindowLimiter, takeAll, type WindowTake } from '@mp/rate-limit';
import { hash } from 'node:crypto';
import { GatewayEnv } from '../gateway.env';

/**
 * Failed dashboard sign-ins counted per account (its email) and per client address in Redis,
 * as AuthThrottle counts failed API key checks: an account or address that used up its failures
 * (SIGN_IN_FAILURE_LIMITS) is refused before its password is checked, right or wrong, with 429
 * `{ error, retry_after }`. Unlike API keys (32 random bytes), a password can be guessed, so
 * when Redis is unreachable sign-ins answer 503 rather than go unthrottled.
 */
@Injectable()
export class SignInThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger('SignInThrottle');
  private readonly redis: RedisConnection;
  private readonly accounts: SlidingWindowLimiter;
  private readonly addresses: SlidingWindowLimiter;

  constructor(config: GatewayEnv) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-sign-in-throttle');
    this.redis.on('error', () => undefined); // answered as 503 where a check fails
    this.accounts = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:sign-in-failures:account`, SIGN_IN_FAILURE_LIMITS.windowMs);
    this.addresses = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:sign-in-failures:address`, SIGN_IN_FAILURE_LIMITS.windowMs);
  }

  /** Throws the 429 when the account or the address (null: not counted) has used up its failures. */
  async refuseIfLocked(email: string, address: string | null): Promise<void> {
    const windows = this.windows(email, address);
    const full = await this.reachRedis(() => firstFullWindow(windows));
    if (full) throw locked(full.index === 0 ? 'account' : 'address', full.retryAfterMs);
  }

  /** Counts a failed sign-in; throws the 429 if a window was full already (sign-ins that raced). */
  async failed(email: string, address: string | null): Promise<void> {
    const windows = this.windows(email, address);
    const decision = await this.reachRedis(() => takeAll(windows));
    if (!decision.allowed) throw locked(decision.refused === 0 ? 'account' : 'address', decision.retryAfterMs);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private windows(email: string, address: string | null): WindowTake[] {
    const account = hash('sha256', email.trim().toLowerCase(), 'base64url');
    const windows: WindowTake[] = [{ limiter: this.accounts, key: account, limit: SIGN_IN_FAILURE_LIMITS.perAccount }];
    if (address !== null) windows.push({ limiter: this.addresses, key: address, limit: SIGN_IN_FAILURE_LIMITS.perAddress });
    return windows;
  }

  private async reachRedis<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.logger.warn({ msg: 'sign-in throttle unavailable; sign-ins refused until Redis answers', err: error });
      throw new ApiError(
        HttpStatus.SERVICE_UNAVAILABLE,
        'Signing in is unavailable for a moment (a dependency is down); try again shortly',
        {},
        { 'Retry-After': '5' },
      );
    }
  }
}

function locked(by: 'account' | 'address', retryAfterMs: number): ApiError {
  const retryAfter = Math.ceil(retryAfterMs / 1000);
  return new ApiError(HttpStatus.TOO_MANY_REQUESTS, signInLockedMessage(by, retryAfterMs), { retry_after: retryAfter }, { 'Retry-After': String(retryAfter) });
}
