import { runScript, SCRIPTS, type RedisClient } from './scripts';
import { takeBatchesOn } from './take-batches';

export type RateDecision = { allowed: true; used: number; limit: number; slot: string } | { allowed: false; used: number; limit: number; retryAfterMs: number };

export interface RateUsage {
  used: number;
  limit: number;
  remaining: number;
  /** When the oldest counted event leaves the window (a slot frees up); null if none is counted. */
  resetAt: Date | null;
}

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
 * Takes a slot in each of these windows in one atomic step, or in none when one of them is full:
 * the first full one, in the order given, is the refusal. Every limiter must use the same Redis
 * connection. Takes asked for while that connection's previous call is on its way go together
 * in the next (take-batches.ts): one round trip for many. Give the slot back with releaseAll.
 */
export async function takeAll(takes: readonly WindowTake[]): Promise<AllWindowsDecision> {
  const redis = takes[0]?.limiter.redis;
  if (!redis || takes.some((take) => take.limiter.redis !== redis)) throw new Error('takeAll needs one or more windows on one Redis connection');
  const slot = newSlotId();
  const windows = takes.map((take) => ({ key: take.limiter.keyFor(take.key), windowMs: take.limiter.windowMs, limit: take.limit }));
  const { allowed, index, used, wait } = await takeBatchesOn(redis).take(slot, windows);
  if (allowed) return { allowed: true, slot, used };
  return { allowed: false, refused: index - 1, used, limit: takes[index - 1].limit, retryAfterMs: Math.max(1, wait) };
}

/**
 * The first of these windows that is full (a take would be refused now), by its index in the
 * takes, with the wait until a slot frees; null when none is. Takes nothing: a check before work
 * whose failures alone are counted (takeAll then counts one). Every limiter must use the same
 * Redis connection.
 */
export async function firstFullWindow(takes: readonly WindowTake[]): Promise<{ index: number; retryAfterMs: number } | null> {
  const redis = takes[0]?.limiter.redis;
  if (!redis || takes.some((take) => take.limiter.redis !== redis)) throw new Error('firstFullWindow needs one or more windows on one Redis connection');
  const keys = takes.map((take) => take.limiter.keyFor(take.key));
  const args = takes.flatMap((take) => [take.limiter.windowMs, take.limit]);
  const [index, wait] = await runScript(redis, SCRIPTS.full, keys, args);
  return index === 0 ? null : { index: index - 1, retryAfterMs: Math.max(1, wait) };
}

/** Gives back a slot takeAll took. */
export async function releaseAll(takes: readonly WindowTake[], slot: string): Promise<void> {
  await Promise.all(takes.map((take) => take.limiter.release(take.key, slot)));
}

let counter = 0;

/**
 * A rolling-window limit kept in Redis: at most `limit` events per `windowMs` per key, counted
 * over the last `windowMs` (not per calendar minute), with the true wait when refused. A slot
 * taken for work that then did not happen can be given back.
 */
export class SlidingWindowLimiter {
  constructor(
    readonly redis: RedisClient,
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
