import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { Money } from '@mp/billing-domain';
import { createRedisConnection, type RedisConnection } from '@mp/queue-runtime';
import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { GatewayEnv } from '../gateway.env';
import {
  COMPARE_AND_SET,
  committedAnswer,
  LEASE_MS,
  RECORD_TTL_MS,
  type AfterCrash,
  type DoneRecord,
  type IdempotencyRecord,
  type PendingAnswer,
  type PendingRecord,
} from './idempotency-records';

/**
 * How long a repeat waits for the first request with its key to finish before answering 409:
 * well under the 15–30 s clients commonly give up after, so that a repeat gets an answer instead
 * of a timeout (the fault tests); the client tries again later.
 */
export const WAIT_FOR_FIRST_MS = 5_000;
const POLL_MS = 25;

/** The balance after the ledger charge with this reference; null if there is none, undefined if PostgreSQL did not answer. */
export type ChargeLookup = (companyId: string, reference: string) => Promise<Money | null | undefined>;

/** A key held by one request: only its owner renews, completes or releases it. */
export interface Lease {
  companyId: string;
  key: string;
  fingerprint: string;
  owner: string;
}

export type Claim =
  | { kind: 'first'; owner: string }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'conflict'; error: string }
  | { kind: 'unavailable'; error: string };

/** The lease is no longer this request's (it ran out): it must not commit. */
export class LeaseLostError extends Error {
  constructor() {
    super('Idempotency-Key lease lost');
    this.name = 'LeaseLostError';
  }
}

/**
 * Idempotency records in Redis for 24 hours, scoped to the company. The first request with a key
 * claims it atomically (SET NX) as a lease it renews while it runs; a repeat with the same body
 * gets the first response, a repeat with another body a conflict, and one arriving while the
 * first still runs waits for it. A repeat finding a lease run out (its gateway died) asks the
 * ledger whether the first committed (see AfterCrash).
 */
@Injectable()
export class IdempotencyStore implements OnApplicationShutdown {
  private readonly redis: RedisConnection;
  private readonly prefix: string;

  constructor(
    config: GatewayEnv,
    private readonly committedCharge: ChargeLookup,
    private readonly leaseMs = LEASE_MS,
  ) {
    this.redis = createRedisConnection(config.REDIS_URL, 'producer', 'gateway-idempotency');
    this.redis.on('error', () => undefined); // a request that needs Redis answers 503
    this.prefix = `${config.QUEUE_PREFIX}:idempotency`;
  }

  async claim(companyId: string, key: string, fingerprint: string, afterCrash: AfterCrash = 'hold'): Promise<Claim> {
    const redisKey = this.keyFor(companyId, key);
    const deadline = Date.now() + WAIT_FOR_FIRST_MS;
    for (;;) {
      const lease = this.newLease(fingerprint, afterCrash);
      if ((await this.redis.set(redisKey, JSON.stringify(lease), 'PX', RECORD_TTL_MS, 'NX')) === 'OK') return { kind: 'first', owner: lease.owner };
      const raw = await this.redis.get(redisKey);
      if (raw === null) continue; // the first attempt failed and released the key: this one becomes the first
      const record = JSON.parse(raw) as IdempotencyRecord;
      if (record.fingerprint !== fingerprint) {
        return { kind: 'conflict', error: 'Idempotency-Key was already used with different parameters' };
      }
      if (record.state === 'done') return { kind: 'replay', status: record.status, body: record.body };
      if (record.afterCrash === 'ledger' && record.leaseUntil < Date.now()) {
        const recovered = await this.recover(companyId, redisKey, raw, record, lease);
        if (recovered) return recovered;
        continue;
      }
      if (Date.now() > deadline) return { kind: 'conflict', error: 'A request with this Idempotency-Key is still being processed' };
      await sleep(POLL_MS);
    }
  }

  /** Keeps the lease while the request runs; false once it is no longer this request's. */
  async renew(lease: Lease): Promise<boolean> {
    return this.updateOwn(lease, (record) => ({ ...record, leaseUntil: Date.now() + this.leaseMs }));
  }

  /** Before a send commits: its answer, so that a retry after a crash can replay it. Throws LeaseLostError if the lease ran out. */
  async recordPendingAnswer(lease: Lease, answer: PendingAnswer): Promise<void> {
    if (!(await this.updateOwn(lease, (record) => ({ ...record, answer, leaseUntil: Date.now() + this.leaseMs })))) throw new LeaseLostError();
  }

  async complete(lease: Lease, status: number, body: unknown): Promise<void> {
    const done: DoneRecord = { state: 'done', fingerprint: lease.fingerprint, status, body };
    await this.updateOwn(lease, () => done);
  }

  /** The first attempt failed: forget the key so a retry runs again. */
  async release(lease: Lease): Promise<void> {
    await this.updateOwn(lease, () => null);
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }

  /**
   * The lease's owner is gone, and any statement it sent has ended. Its charge in the ledger means
   * it committed: its answer is replayed. No charge (or no answer recorded, so it never reached
   * its commit): this request takes the key over and runs. Null if another retry got there first.
   */
  private async recover(companyId: string, redisKey: string, raw: string, record: PendingRecord, lease: PendingRecord): Promise<Claim | null> {
    if (record.answer) {
      const balance = await this.committedCharge(companyId, record.answer.chargeReference);
      if (balance === undefined) return { kind: 'unavailable', error: 'Service temporarily unavailable' };
      if (balance !== null) {
        const replay = committedAnswer(record.answer, balance);
        const done: DoneRecord = { state: 'done', fingerprint: record.fingerprint, ...replay };
        await this.compareAndSet(redisKey, raw, JSON.stringify(done));
        return { kind: 'replay', ...replay };
      }
    }
    return (await this.compareAndSet(redisKey, raw, JSON.stringify(lease))) ? { kind: 'first', owner: lease.owner } : null;
  }

  private async updateOwn(lease: Lease, next: (record: PendingRecord) => IdempotencyRecord | null): Promise<boolean> {
    const redisKey = this.keyFor(lease.companyId, lease.key);
    const raw = await this.redis.get(redisKey);
    if (raw === null) return false;
    const record = JSON.parse(raw) as IdempotencyRecord;
    if (record.state !== 'pending' || record.owner !== lease.owner) return false;
    const replacement = next(record);
    return this.compareAndSet(redisKey, raw, replacement === null ? '' : JSON.stringify(replacement));
  }

  private async compareAndSet(redisKey: string, expected: string, replacement: string): Promise<boolean> {
    return (await this.redis.eval(COMPARE_AND_SET, 1, redisKey, expected, replacement, RECORD_TTL_MS)) === 1;
  }

  private newLease(fingerprint: string, afterCrash: AfterCrash): PendingRecord {
    return { state: 'pending', fingerprint, owner: randomUUID(), leaseUntil: Date.now() + this.leaseMs, afterCrash };
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
