import { moneyToJson, type Money } from '@mp/billing-domain';

/** How long an Idempotency-Key record (pending or done) is kept. */
export const RECORD_TTL_MS = 24 * 3600 * 1000;
/**
 * A pending key is a lease held by one gateway request, renewed every LEASE_RENEW_MS while it
 * runs. Once a lease has run out its holder is gone (a crashed gateway), and any statement it had
 * sent PostgreSQL has long ended: a send statement takes milliseconds, lock waits behind other
 * groups a few seconds. docs/decisions/0048-idempotency-leases-and-committed-answers.md
 */
export const LEASE_MS = 30_000;
export const LEASE_RENEW_MS = 10_000;

/**
 * What a retry finding a run-out lease may do:
 * - `ledger`: the handler records its answer (less the balance) and its charge's ledger reference
 *   before it commits; committed → the answer is replayed, otherwise the retry runs as the first.
 * - `hold`: the outcome cannot be learnt (a handler that writes something without such an
 *   answer): the key stays pending, and retries answer 409, until the record expires.
 */
export type AfterCrash = 'ledger' | 'hold';

/** A send's answer before it commits: the field at `balancePath` is the balance after the ledger charge `chargeReference`. */
export interface PendingAnswer {
  status: number;
  body: Record<string, unknown>;
  balancePath: string[];
  chargeReference: string;
}

export interface PendingRecord {
  state: 'pending';
  fingerprint: string;
  owner: string;
  leaseUntil: number;
  afterCrash: AfterCrash;
  answer?: PendingAnswer;
}

export interface DoneRecord {
  state: 'done';
  fingerprint: string;
  status: number;
  body: unknown;
}

export type IdempotencyRecord = PendingRecord | DoneRecord;

/** The answer a committed send gave, its balance taken from its ledger charge. */
export function committedAnswer(answer: PendingAnswer, balance: Money): { status: number; body: unknown } {
  return { status: answer.status, body: withValueAt(answer.body, answer.balancePath, moneyToJson(balance)) };
}

function withValueAt(body: Record<string, unknown>, [field, ...rest]: string[], value: unknown): Record<string, unknown> {
  const inner = rest.length === 0 ? value : withValueAt((body[field] ?? {}) as Record<string, unknown>, rest, value);
  return { ...body, [field]: inner };
}

/** SET the key to ARGV[2] (or DEL it when empty) only if it still holds ARGV[1]: a record changes only from what was read. */
export const COMPARE_AND_SET = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '' then redis.call('DEL', KEYS[1]) else redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) end
return 1`;
