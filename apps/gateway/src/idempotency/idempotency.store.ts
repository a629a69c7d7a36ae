import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { GatewayEnv } from '../gateway.env';
import { createRedisConnection, type RedisConnection } from '@mp/queue-runtime';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

const TTL_MS = 24 * 3600 * 1000;
/**
 * How long a repeat waits for the first request with its key to finish before answering 409:
 * well under the 15–30 s clients commonly give up after, so that a repeat of a request cut off by
 * a crashed gateway (its key stays pending) gets an answer instead of a timeout (the fault tests).
 */
export const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 25;

type Record_ = { state: 'pending'; fingerprint: string } | { state: 'done'; fingerprint: string; status: number; body: unknown };

export type Claim = { kind: 'first' } | { kind: 'replay'; status: number; body: unknown } | { kind: 'conflict'; error: string };

/**
 * Idempotency records in Redis for 24 hours, scoped to the company. The first request with a key
 * claims it atomically (SET NX); a repeat with the same body gets the first response, a repeat
 * with another body a conflict, and one arriving while the first still runs waits for it.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationShutdown {
  private readonly redis: RedisConnection;
  private readonly prefix: string;

  constructor(config: GatewayEnv) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-idempotency');
    this.redis.on('error', () => undefined); // a request that needs Redis answers 503
    this.prefix = `${config.QUEUE_PREFIX}:idempotency`;
  }

  async claim(companyId: string, key: string, fingerprint: string): Promise<Claim> {
    const redisKey = this.keyFor(companyId, key);
    const pending: Record_ = { state: 'pending', fingerprint };
    if ((await this.redis.set(redisKey, JSON.stringify(pending), 'PX', TTL_MS, 'NX')) === 'OK') return { kind: 'first' };
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const raw = await this.redis.get(redisKey);
      if (raw === null) {
        // The first attempt failed and released the key: this one becomes the first.
        if ((await this.redis.set(redisKey, JSON.stringify(pending), 'PX', TTL_MS, 'NX')) === 'OK') return { kind: 'first' };
        continue;
      }
      const record = JSON.parse(raw) as Record_;
      if (record.fingerprint !== fingerprint) {
        return { kind: 'conflict', error: 'Idempotency-Key was already used with different parameters' };
      }
      if (record.state === 'done') return { kind: 'replay', status: record.status, body: record.body };
      if (Date.now() > deadline) return { kind: 'conflict', error: 'A request with this Idempotency-Key is still being processed' };
      await sleep(POLL_MS);
    }
  }

  async complete(companyId: string, key: string, fingerprint: string, status: number, body: unknown): Promise<void> {
    const record: Record_ = { state: 'done', fingerprint, status, body };
    await this.redis.set(this.keyFor(companyId, key), JSON.stringify(record), 'PX', TTL_MS, 'XX');
  }

  /** The first attempt failed: forget the key so a retry runs again. */
  async release(companyId: string, key: string): Promise<void> {
    await this.redis.del(this.keyFor(companyId, key));
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  private keyFor(companyId: string, key: string): string {
    return `${this.prefix}:${companyId}:${createHash('sha256').update(key).digest('hex')}`;
  }
}

/** Same method, path and JSON body (keys in any order) → same fingerprint. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body)}`)
    .digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
