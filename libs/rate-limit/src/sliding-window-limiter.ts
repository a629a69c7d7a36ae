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

// Scripts, so that counting and taking a slot are one atomic step however many gateways ask at
// once; Redis's own clock, so gateways with skewed clocks agree.
//
// TAKE: KEYS are windows' sorted sets; ARGV[1] the slot id, then each window's ms and limit. A
// slot is taken in every window or, when one is full, in none. Answers { 1, 0, used in the first
// window, 0 } or { 0, index of the full window (from 1), its used, ms until a slot frees }.
const TAKE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local first = 0
for i = 1, #KEYS do
  local window = tonumber(ARGV[2 * i])
  local limit = tonumber(ARGV[2 * i + 1])
  redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
  local used = redis.call('ZCARD', KEYS[i])
  if used >= limit then
    local freeing = redis.call('ZRANGE', KEYS[i], used - limit, used - limit, 'WITHSCORES')
    local wait = window
    if freeing[2] then wait = tonumber(freeing[2]) + window - now end
    return { 0, i, used, wait }
  end
  if i == 1 then first = used end
end
for i = 1, #KEYS do
  redis.call('ZADD', KEYS[i], now, ARGV[1])
  redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[2 * i]))
end
return { 1, 0, first + 1, 0 }
`;

// USAGE: KEYS[1] a window's sorted set; ARGV[1] its ms. Answers { used, when its oldest event
// leaves the window, or -1 }.
const USAGE_SCRIPT = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
local reset = -1
if oldest[2] then reset = tonumber(oldest[2]) + window end
return { used, reset }
`;

const sha1 = (script: string): string => createHash('sha1').update(script).digest('hex');
const SCRIPTS = { take: { text: TAKE_SCRIPT, sha: sha1(TAKE_SCRIPT) }, usage: { text: USAGE_SCRIPT, sha: sha1(USAGE_SCRIPT) } };

/** A slot to take in one limiter's window: for `key`, at most `limit` in the window. */
export interface WindowTake {
  limiter: SlidingWindowLimiter;
  key: string;
  limit: number;
}

export type AllWindowsDecision =
  | { allowed: true; slot: string; /** Events in the first window, this one included. */ used: number }
  | { allowed: false; /** Index in the takes of the window that was full. */ refused: number; used: number; limit: number; retryAfterMs: number };

/**
 * Takes a slot in each of these windows in one atomic step (one round trip to Redis), or in none
 * when one of them is full: the first full one, in the order given, is the refusal. Every limiter
 * must use the same Redis connection. Give the slot back with releaseAll.
 */
export async function takeAll(takes: readonly WindowTake[]): Promise<AllWindowsDecision> {
  const redis = takes[0]?.limiter.redis;
  if (!redis || takes.some((take) => take.limiter.redis !== redis)) throw new Error('takeAll needs one or more windows on one Redis connection');
  const slot = newSlotId();
  const windows = takes.flatMap((take) => [take.limiter.windowMs, take.limit]);
  const [allowed, index, used, wait] = await runScript(redis, SCRIPTS.take, takes.map((take) => take.limiter.keyFor(take.key)), [slot, ...windows]);
  if (allowed === 1) return { allowed: true, slot, used };
  return { allowed: false, refused: index - 1, used, limit: takes[index - 1].limit, retryAfterMs: Math.max(1, wait) };
}

/** Gives back a slot takeAll took. */
export async function releaseAll(takes: readonly WindowTake[], slot: string): Promise<void> {
  await Promise.all(takes.map((take) => take.limiter.release(take.key, slot)));
}

/**
 * A script by its SHA-1 (EVALSHA), sent whole only when this Redis does not have it yet: sent
 * whole on every call, it was most of the bytes a gateway wrote to Redis per OTP, and Redis
 * hashed it again each time.
 */
async function runScript(redis: Redis, script: { text: string; sha: string }, keys: string[], args: (string | number)[]): Promise<number[]> {
  try {
    return (await redis.evalsha(script.sha, keys.length, ...keys, ...args)) as number[];
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return (await redis.eval(script.text, keys.length, ...keys, ...args)) as number[];
  }
}

let counter = 0;

/**
 * A rolling-window limit kept in Redis: at most `limit` events per `windowMs` per key, counted
 * over the last `windowMs` (not per calendar minute), with the true wait when refused. A slot
 * taken for work that then did not happen can be given back.
 */
export class SlidingWindowLimiter {
  constructor(
    readonly redis: Redis,
    private readonly prefix: string,
    readonly windowMs: number,
  ) {}

  async take(key: string, limit: number): Promise<RateDecision> {
    const decision = await takeAll([{ limiter: this, key, limit }]);
    if (decision.allowed) return { allowed: true, used: decision.used, limit, slot: decision.slot };
    return { allowed: false, used: decision.used, limit, retryAfterMs: decision.retryAfterMs };
  }

  /** Gives a slot back (the send it was taken for was refused or failed). */
  async release(key: string, slot: string): Promise<void> {
    await this.redis.zrem(this.keyFor(key), slot);
  }

  async usage(key: string, limit: number): Promise<RateUsage> {
    const [used, reset] = await runScript(this.redis, SCRIPTS.usage, [this.keyFor(key)], [this.windowMs]);
    return { used, limit, remaining: Math.max(0, limit - used), resetAt: reset >= 0 ? new Date(reset) : null };
  }

  keyFor(key: string): string {
    return `${this.prefix}:${key}`;
  }
}

function newSlotId(): string {
  return `${Date.now()}-${process.pid}-${counter++}`;
}
