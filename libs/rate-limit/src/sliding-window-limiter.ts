import type Redis from 'ioredis';
import { createHash } from 'node:crypto';

export type RateDecision =
  | { allowed: true; used: number; limit: number; slot: string }
  | { allowed: false; used: number; limit: number; retryAfterMs: number };

export interface RateUsage {
  used: number;
  limit: number;
  remaining: number;
  /** When the oldest counted event leaves the window (a slot frees up); null if none is counted. */
  resetAt: Date | null;
}

// One script, so that counting and taking a slot are one atomic step however many gateways ask
// at once; Redis's own clock, so gateways with skewed clocks agree. KEYS[1]: the window's sorted
// set. ARGV: window ms, limit, slot id, take (1) or only look (0). Answers
// { allowed, used, wait ms or oldest score }.
const SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if ARGV[4] == '0' then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  local reset = -1
  if oldest[2] then reset = tonumber(oldest[2]) + window end
  return { 1, used, reset }
end
if used < limit then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], window)
  return { 1, used + 1, 0 }
end
local freeing = redis.call('ZRANGE', KEYS[1], used - limit, used - limit, 'WITHSCORES')
return { 0, used, tonumber(freeing[2]) + window - now }
`;

const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

let counter = 0;

/**
 * A rolling-window limit kept in Redis: at most `limit` events per `windowMs` per key, counted
 * over the last `windowMs` (not per calendar minute), with the true wait when refused. A slot
 * taken for work that then did not happen can be given back.
 */
export class SlidingWindowLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly windowMs: number,
  ) {}

  async take(key: string, limit: number): Promise<RateDecision> {
    const slot = `${Date.now()}-${process.pid}-${counter++}`;
    const [allowed, used, wait] = await this.run(this.keyFor(key), this.windowMs, limit, slot, '1');
    if (allowed === 1) return { allowed: true, used, limit, slot };
    return { allowed: false, used, limit, retryAfterMs: Math.max(1, wait) };
  }

  /** Gives a slot back (the send it was taken for was refused or failed). */
  async release(key: string, slot: string): Promise<void> {
    await this.redis.zrem(this.keyFor(key), slot);
  }

  async usage(key: string, limit: number): Promise<RateUsage> {
    const [, used, reset] = await this.run(this.keyFor(key), this.windowMs, limit, '', '0');
    return { used, limit, remaining: Math.max(0, limit - used), resetAt: reset >= 0 ? new Date(reset) : null };
  }

  /**
   * The script by its SHA-1 (EVALSHA), sent whole only when this Redis does not have it yet: sent
   * whole on every call, it was most of the bytes a gateway wrote to Redis per OTP, and Redis
   * hashed it again each time.
   */
  private async run(key: string, ...args: (string | number)[]): Promise<number[]> {
    try {
      return (await this.redis.evalsha(SCRIPT_SHA, 1, key, ...args)) as number[];
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
      return (await this.redis.eval(SCRIPT, 1, key, ...args)) as number[];
    }
  }

  private keyFor(key: string): string {
    return `${this.prefix}:${key}`;
  }
}
