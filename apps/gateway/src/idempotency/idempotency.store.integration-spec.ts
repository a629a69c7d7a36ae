import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { committedCharge, MessageRepository, SmsAcceptanceService, type PendingAcceptance } from '@mp/messaging';
import { openTestDataSource } from '@mp/testing';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { DataSource } from 'typeorm';
import type { GatewayEnv } from '../gateway.env';
import { IdempotencyStore, type Lease } from './idempotency.store';

const LEASE_MS = 300;
const config = { REDIS_URL: process.env['REDIS_URL'], QUEUE_PREFIX: `${process.env['QUEUE_PREFIX']}-idempotency` } as GatewayEnv;

// Against the run's Redis and PostgreSQL: what a retry gets while the first request with its key
// is pending, and once that request's gateway died (its lease ran out) with or without committing.
describe('IdempotencyStore', () => {
  let db: DataSource;
  let store: IdempotencyStore;
  let accounts: AccountsService;
  let sends: SmsAcceptanceService;
  const company = randomUUID();

  const send = (companyId: string, before?: (pending: PendingAcceptance) => Promise<void>) =>
    sends.accept(
      { companyId, sender: 'Acme', route: 'auto', body: 'Hello', recipients: ['+33612345678'], reference: null, webhookUrl: null, scheduledAt: null },
      DEFAULT_PRICES,
      before,
    );
  /** A gateway request that records its answer, as SmsService does, before its send commits. */
  const recordingAnswer = (lease: Lease) => (pending: PendingAcceptance) =>
    store.recordPendingAnswer(lease, {
      status: 200,
      body: { status: 'success', data: { message_id: pending.messages[0].messageId, balance: 0 } },
      balancePath: ['data', 'balance'],
      chargeReference: pending.chargeReference,
    });
  const firstOwner = async (companyId: string, key: string): Promise<Lease> => {
    const claim = await store.claim(companyId, key, 'fingerprint', 'ledger');
    if (claim.kind !== 'first') throw new Error(`expected the first claim, got ${claim.kind}`);
    return { companyId, key, fingerprint: 'fingerprint', owner: claim.owner };
  };
  const charges = async (companyId: string) =>
    ((await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [companyId])) as { n: number }[])[0].n;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'idempotency-pepper-'.padEnd(40, 'x'));
    sends = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
    store = new IdempotencyStore(config, (companyId, reference) => committedCharge(db, { companyId, reference }, { timeoutMs: 1_000, pollMs: 50 }), LEASE_MS);
    // The producer connection has no offline queue: a command before it is ready fails at once.
    for (;;) {
      const ready = await store.claim(company, 'warm-up', 'warm-up').then(
        () => true,
        () => false,
      );
      if (ready) return;
      await sleep(50);
    }
  });
  afterAll(async () => {
    store.onApplicationShutdown();
    await db.destroy();
  });

  it('answers a repeat whose first request does not finish with a conflict, not a wait without end', async () => {
    const key = randomUUID();
    expect(await store.claim(company, key, 'fingerprint')).toMatchObject({ kind: 'first' });
    expect(await store.claim(company, key, 'fingerprint')).toEqual({ kind: 'conflict', error: 'A request with this Idempotency-Key is still being processed' });
  });

  it('replays the first answer once it is stored, and runs a repeat afresh once a failed first released the key', async () => {
    const key = randomUUID();
    const lease = await firstOwner(company, key);
    await store.complete(lease, 200, { ok: true });
    expect(await store.claim(company, key, 'fingerprint')).toEqual({ kind: 'replay', status: 200, body: { ok: true } });
    const released = await firstOwner(company, randomUUID());
    await store.release(released);
    expect(await store.claim(company, released.key, 'fingerprint')).toMatchObject({ kind: 'first' });
  });

  it('replays, with the balance its charge left, the answer of a send committed by a request whose gateway then died', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Committed then crashed', balance: '1' });
    const key = randomUUID();
    const lease = await firstOwner(company_id, key);
    const accepted = await send(company_id, recordingAnswer(lease)); // committed; the response is never stored
    await sleep(LEASE_MS * 2); // no renewal: the gateway is gone

    const retry = await store.claim(company_id, key, 'fingerprint', 'ledger');
    expect(retry).toEqual({ kind: 'replay', status: 200, body: { status: 'success', data: { message_id: accepted.messages[0].messageId, balance: 0.99 } } });
    expect(await store.claim(company_id, key, 'fingerprint', 'ledger')).toEqual(retry);
    expect(await charges(company_id)).toBe(1);
  });

  it('runs once, as the first, the retry of a send whose gateway died before it committed', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Crashed before commit', balance: '1' });
    const key = randomUUID();
    const lease = await firstOwner(company_id, key);
    const crash = new Error('the gateway died here');
    await expect(send(company_id, (pending) => recordingAnswer(lease)(pending).then(() => Promise.reject(crash)))).rejects.toBe(crash);
    await sleep(LEASE_MS * 2);

    const retry = await firstOwner(company_id, key);
    const accepted = await send(company_id, recordingAnswer(retry));
    await store.complete(retry, 200, { message_id: accepted.messages[0].messageId });
    await store.complete(lease, 200, { from: 'the dead owner' }); // a stale owner changes nothing
    expect(await store.claim(company_id, key, 'fingerprint', 'ledger')).toEqual({
      kind: 'replay',
      status: 200,
      body: { message_id: accepted.messages[0].messageId },
    });
    expect(await charges(company_id)).toBe(1);
  });

  it('keeps a live request its key while it renews its lease, and refuses to record the answer of one whose lease was taken over', async () => {
    const key = randomUUID();
    const lease = await firstOwner(company, key);
    const renewing = setInterval(() => void store.renew(lease), LEASE_MS / 3);
    try {
      expect(await store.claim(company, key, 'fingerprint', 'ledger')).toMatchObject({ kind: 'conflict' });
    } finally {
      clearInterval(renewing);
    }
    await sleep(LEASE_MS * 2);
    expect(await store.claim(company, key, 'fingerprint', 'ledger')).toMatchObject({ kind: 'first' });
    await expect(store.recordPendingAnswer(lease, { status: 200, body: {}, balancePath: ['balance'], chargeReference: 'sms-request:none' })).rejects.toThrow(
      'lease lost',
    );
  });

  it('holds the key of a handler whose outcome the ledger cannot tell (no takeover) until the record expires', async () => {
    const key = randomUUID();
    await store.claim(company, key, 'fingerprint', 'hold');
    await sleep(LEASE_MS * 2);
    expect(await store.claim(company, key, 'fingerprint', 'hold')).toMatchObject({ kind: 'conflict' });
  });
});
