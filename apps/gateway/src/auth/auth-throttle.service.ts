import { HttpStatus, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import { createRedisConnection, type RedisConnection } from '@mp/queue-runtime';
import { firstFullWindow, SlidingWindowLimiter, takeAll, type WindowTake } from '@mp/rate-limit';
import { hash } from 'node:crypto';
import { GatewayEnv } from '../gateway.env';

/**
 * Failed API key checks (a wrong secret, an unknown or revoked key) allowed per rolling window:
 * past them, checks of that key, or from that address, answer 429 until the oldest failure in
 * the window is `windowMs` old. A success is not counted.
 */
export const AUTH_FAILURE_LIMITS = { windowMs: 15 * 60_000, perKey: 10, perAddress: 50 } as const;

/**
 * The throttle of API key checks (POST /auth/token, and the key pair, Basic and base64 Bearer
 * credentials of every route): failures counted per key and per client address in Redis (every
 * gateway shares the counts), as OTP verification counts wrong codes. A key or address that used
 * up its failures is refused before its secret is checked, right or wrong, so guessing stops.
 *
 * Redis holds, per key and per address, at most the limit's entries, in a sorted set that expires
 * a window after its last failure; the key is stored as its SHA-256, and an address stops adding
 * keys once its own window is full, so what a caller can make Redis hold is bounded by the
 * addresses it has, and leaves within the window.
 *
 * When Redis cannot be reached the throttle lets checks through (logged): it is a guard on top of
 * secrets of 32 random bytes, and the API should not stop with it.
 */
@Injectable()
export class AuthThrottle implements OnApplicationShutdown {
  private readonly logger = new Logger('AuthThrottle');
  private readonly redis: RedisConnection;
  private readonly keys: SlidingWindowLimiter;
  private readonly addresses: SlidingWindowLimiter;

  constructor(config: GatewayEnv) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-auth-throttle');
    this.redis.on('error', () => undefined); // logged where a check fails
    this.keys = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:auth-failures:key`, AUTH_FAILURE_LIMITS.windowMs);
    this.addresses = new SlidingWindowLimiter(this.redis, `${config.QUEUE_PREFIX}:auth-failures:address`, AUTH_FAILURE_LIMITS.windowMs);
  }

  /** Throws the 429 when the key or the address (null: not counted) has used up its failures. */
  async refuseIfBlocked(key: string, address: string | null): Promise<void> {
    const full = await this.failOpen(() => firstFullWindow(this.windows(key, address)), null);
    if (full) throw tooManyFailures(full.retryAfterMs);
  }

  /** Counts a failure of the key from the address; throws the 429 if its window was full already (checks that raced). */
  async failed(key: string, address: string | null): Promise<void> {
    const decision = await this.failOpen(() => takeAll(this.windows(key, address)), null);
    if (decision && !decision.allowed) throw tooManyFailures(decision.retryAfterMs);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private windows(key: string, address: string | null): WindowTake[] {
    const windows: WindowTake[] = [{ limiter: this.keys, key: hash('sha256', key, 'base64url'), limit: AUTH_FAILURE_LIMITS.perKey }];
    if (address !== null) windows.push({ limiter: this.addresses, key: address, limit: AUTH_FAILURE_LIMITS.perAddress });
    return windows;
  }

  private async failOpen<T>(work: () => Promise<T>, fallback: T): Promise<T> {
    try {
      return await work();
    } catch (error) {
      this.logger.warn({ msg: 'authentication throttle unavailable; checking without it', err: error });
      return fallback;
    }
  }
}

function tooManyFailures(retryAfterMs: number): ApiError {
  const retryAfter = Math.ceil(retryAfterMs / 1000);
  return new ApiError(
    HttpStatus.TOO_MANY_REQUESTS,
    `Too many failed authentication attempts; try again in ${retryAfter} seconds`,
    { retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}
