import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { DispatchStore, finalMessageState, NO_RECEIPT } from './dispatch-store';
import { MessageRefundService } from './message-refund';
import { MessageRepository } from './message.repository';
import { SmsAcceptanceService } from './sms-acceptance';

const HOOK = 'https://example.com/hooks/sms';

describe('DispatchStore (PostgreSQL)', () => {
  let db: DataSource;
  let store: DispatchStore;
  let send: (body: string, options?: { scheduledAt?: Date; webhookUrl?: string }) => Promise<string>;

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    store = new DispatchStore(db, new OutboxRepository(db));
    const accounts = new AccountsService(db, accountsRepositories(db), 'dispatch-pepper-'.padEnd(40, 'x'));
    const { company_id } = await accounts.createCompany({ name: 'Dispatch', balance: '10' });
    const acceptance = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
    send = async (body, options = {}) => {
      const { scheduledAt = null, webhookUrl = null } = options;
      const accepted = await acceptance.accept(
        { companyId: company_id, sender: 'Acme', route: 'auto', body, recipients: ['+33612345678'], reference: null, webhookUrl, scheduledAt },
        DEFAULT_PRICES,
      );
      return accepted.messages[0].messageId;
    };
  });
  afterAll(() => db.destroy());

  const statusOf = async (id: string) => (await db.query(`SELECT status FROM messages WHERE id = $1`, [id]))[0].status as string;

  it('records a part no receipt answered in time as expired (no-receipt), settling its message, and leaves younger parts alone', async () => {
    const old = await send('w'.repeat(200));
    const young = await send('young');
    await store.recordSubmittedMany([
      { messageId: old, partIndex: 1, carrierMessageId: 'stale-1' },
      { messageId: old, partIndex: 2, carrierMessageId: 'stale-2' },
      { messageId: young, partIndex: 1, carrierMessageId: 'fresh-1' },
    ]);
    await store.applyReceipt({ carrierMessageId: 'stale-1', stat: 'DELIVRD', err: '000', doneAt: null });
    await db.query(`UPDATE message_parts SET submitted_at = now() - interval '73 hours' WHERE message_id = $1`, [old]);
    // Back-dating puts the parts behind where earlier sweeps of this database stopped.
    await db.query(`DELETE FROM sweep_cursors`);
    const expired = await store.expireUnanswered(72 * 3600_000);
    expect(expired.transitions).toEqual([{ messageId: old, status: 'expired', webhookUrl: null }]);
    const parts = await db.query(`SELECT part_index, status, error_code FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [old]);
    expect(parts).toEqual([
      { part_index: 1, status: 'delivered', error_code: null },
      { part_index: 2, status: 'expired', error_code: NO_RECEIPT },
    ]);
    expect((await db.query(`SELECT error_code, error_reason FROM messages WHERE id = $1`, [old]))[0]).toEqual({
      error_code: NO_RECEIPT,
      error_reason: 'no delivery receipt within the receipt timeout',
    });
    expect(await statusOf(young)).toBe('sent');
    expect((await store.expireUnanswered(72 * 3600_000)).transitions).toEqual([]);
  });

  it('walks the parts awaiting a receipt from where the last round stopped, a page at a time', async () => {
    const first = await send('first');
    const second = await send('second');
    await store.recordSubmittedMany([
      { messageId: first, partIndex: 1, carrierMessageId: 'page-1' },
      { messageId: second, partIndex: 1, carrierMessageId: 'page-2' },
    ]);
    await db.query(`UPDATE message_parts SET submitted_at = now() - interval '75 hours' WHERE message_id = $1`, [first]);
    await db.query(`UPDATE message_parts SET submitted_at = now() - interval '74 hours' WHERE message_id = $1`, [second]);
    await db.query(`DELETE FROM sweep_cursors`);
    const cursor = async () => (await db.query(`SELECT through FROM sweep_cursors WHERE name = 'receipt-expiry'`))[0]?.through as Date | undefined;

    expect((await store.expireUnanswered(72 * 3600_000, 1)).transitions.map((t) => t.messageId)).toEqual([first]);
    const afterFirstPage = await cursor();
    expect(afterFirstPage?.getTime() ?? Infinity).toBeLessThan(Date.now() - 74.5 * 3600_000);
    expect((await store.expireUnanswered(72 * 3600_000, 1)).transitions.map((t) => t.messageId)).toEqual([second]);
    expect((await store.expireUnanswered(72 * 3600_000, 1)).transitions).toEqual([]);
    // A round that found less than a page has looked at everything up to the timeout.
    expect((await cursor())?.getTime() ?? -Infinity).toBeGreaterThan(Date.now() - 72 * 3600_000 - 60_000);
    expect(await statusOf(first)).toBe('expired');
    expect(await statusOf(second)).toBe('expired');
  });

  it('moves a message queued → sent → delivered once every part is delivered', async () => {
    const id = await send('x'.repeat(200), { webhookUrl: HOOK });
    expect((await store.recordSubmitted(id, 1, 'c-1a')).transitions).toEqual([{ messageId: id, status: 'sent', webhookUrl: HOOK }]);
    expect((await store.recordSubmitted(id, 2, 'c-1b')).transitions).toEqual([]);
    expect((await store.applyReceipt({ carrierMessageId: 'c-1a', stat: 'DELIVRD', err: '000', doneAt: null })).transitions).toEqual([]);
    const delivered = await store.applyReceipt({ carrierMessageId: 'c-1b', stat: 'DELIVRD', err: '000', doneAt: null });
    expect(delivered.transitions).toEqual([{ messageId: id, status: 'delivered', webhookUrl: HOOK }]);
    expect(delivered.outbox.jobs.map((job) => job.jobId)).toEqual([`evt-${id}-delivered`]);
    expect(await statusOf(id)).toBe('delivered');
    expect((await store.applyReceipt({ carrierMessageId: 'c-1b', stat: 'DELIVRD', err: '000', doneAt: null })).transitions).toEqual([]);
    const events = await db.query(`SELECT job_id FROM outbox WHERE job_id LIKE $1 ORDER BY id`, [`evt-${id}-%`]);
    expect(events.map((e: { job_id: string }) => e.job_id)).toEqual([`evt-${id}-sent`, `evt-${id}-delivered`]);
  });

  it('keeps a receipt that overtakes its submit response and applies it when the part is recorded', async () => {
    const id = await send('early');
    expect((await store.applyReceipt({ carrierMessageId: 'c-2', stat: 'DELIVRD', err: '000', doneAt: null })).transitions).toEqual([]);
    expect((await store.recordSubmitted(id, 1, 'c-2')).transitions).toEqual([
      { messageId: id, status: 'sent', webhookUrl: null },
      { messageId: id, status: 'delivered', webhookUrl: null },
    ]);
    expect(await statusOf(id)).toBe('delivered');
  });

  it('settles two parts whose receipts are applied at the same moment', async () => {
    for (let round = 0; round < 10; round++) {
      const id = await send('y'.repeat(200));
      await store.recordSubmitted(id, 1, `c-3a-${round}`);
      await store.recordSubmitted(id, 2, `c-3b-${round}`);
      await Promise.all([
        store.applyReceipt({ carrierMessageId: `c-3a-${round}`, stat: 'DELIVRD', err: '000', doneAt: null }),
        store.applyReceipt({ carrierMessageId: `c-3b-${round}`, stat: 'UNDELIV', err: '001', doneAt: null }),
      ]);
      expect(await statusOf(id)).toBe('undelivered');
    }
  });

  it('does not release a scheduled message that was cancelled first', async () => {
    const id = await send('later', { scheduledAt: new Date(Date.now() + 60_000) });
    await db.query(`UPDATE messages SET status = 'cancelled' WHERE id = $1`, [id]);
    expect(await store.release(id)).toBe('cancelled');
    const other = await send('later too', { scheduledAt: new Date(Date.now() + 60_000) });
    expect(await store.release(other)).toBe('queued');
  });

  it('fails a message whose every part the carrier refused', async () => {
    const id = await send('refused', { webhookUrl: HOOK });
    const failed = await store.recordPartFailed(id, 1, 'smpp:11', 'invalid destination');
    expect(failed.transitions).toEqual([{ messageId: id, status: 'failed', webhookUrl: HOOK }]);
    expect(failed.outbox.jobs.map((job) => job.jobId)).toEqual([`evt-${id}-failed`, `refund-${id}`]);
    const [row] = await db.query(`SELECT status, error_code FROM messages WHERE id = $1`, [id]);
    expect(row).toEqual({ status: 'failed', error_code: 'smpp:11' });
  });

  it('commits no status event for a message without a webhook, but still its refund', async () => {
    const id = await send('no hook');
    const sent = await store.recordSubmitted(id, 1, `c-6-${id}`);
    expect(sent.transitions).toEqual([{ messageId: id, status: 'sent', webhookUrl: null }]);
    expect(sent.outbox).toEqual({ ids: [], jobs: [] });
    const expired = await store.applyReceipt({ carrierMessageId: `c-6-${id}`, stat: 'EXPIRED', err: '000', doneAt: null });
    expect(expired.transitions).toEqual([{ messageId: id, status: 'expired', webhookUrl: null }]);
    expect(expired.outbox.jobs.map((job) => job.jobId)).toEqual([`refund-${id}`]);
    expect(await db.query(`SELECT job_id FROM outbox WHERE job_id LIKE $1`, [`evt-${id}-%`])).toEqual([]);
  });

  describe("gives a message that was not delivered its receipt's error code", () => {
    const errorOf = async (id: string) =>
      (await db.query(`SELECT status, error_code, error_reason FROM messages WHERE id = $1`, [id]))[0] as Record<string, string | null>;
    const partErrors = async (id: string) =>
      (await db.query(`SELECT error_code FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [id])).map(
        (p: { error_code: string | null }) => p.error_code,
      );
    const undelivered = { status: 'undelivered', error_code: '001', error_reason: "the carrier's receipt said UNDELIV (err:001)" };

    it('a message of one part, settled by its receipt', async () => {
      const id = await send('one part', { webhookUrl: HOOK });
      await store.recordSubmitted(id, 1, `e-1-${id}`);
      await store.applyReceipt({ carrierMessageId: `e-1-${id}`, stat: 'UNDELIV', err: '001', doneAt: null });
      expect(await errorOf(id)).toEqual(undelivered);
      expect(await partErrors(id)).toEqual(['001']);
    });

    it('a message of one part whose receipt overtook its submit response', async () => {
      const id = await send('early failure');
      await store.applyReceipt({ carrierMessageId: `e-2-${id}`, stat: 'UNDELIV', err: '001', doneAt: null });
      await store.recordSubmitted(id, 1, `e-2-${id}`);
      expect(await errorOf(id)).toEqual(undelivered);
    });

    it('a message of several parts: the first part not delivered gives it, and a delivered part none', async () => {
      const id = await send('m'.repeat(400));
      await store.recordSubmittedMany([1, 2, 3].map((partIndex) => ({ messageId: id, partIndex, carrierMessageId: `e-3-${id}-${partIndex}` })));
      await store.applyReceipts([
        { carrierMessageId: `e-3-${id}-3`, stat: 'UNDELIV', err: '034', doneAt: null },
        { carrierMessageId: `e-3-${id}-1`, stat: 'DELIVRD', err: '000', doneAt: null },
      ]);
      expect(await errorOf(id)).toEqual({ status: 'sent', error_code: null, error_reason: null });
      await store.applyReceipt({ carrierMessageId: `e-3-${id}-2`, stat: 'UNDELIV', err: '001', doneAt: null });
      expect(await errorOf(id)).toEqual(undelivered);
      expect(await partErrors(id)).toEqual([null, '001', '034']);
    });

    it('a receipt without an err: no code, the stat as the reason', async () => {
      const id = await send('no err');
      await store.recordSubmitted(id, 1, `e-4-${id}`);
      await store.applyReceipt({ carrierMessageId: `e-4-${id}`, stat: 'REJECTD', err: '', doneAt: null });
      expect(await errorOf(id)).toEqual({ status: 'rejected', error_code: null, error_reason: "the carrier's receipt said REJECTD" });
    });

    it('a delivered message keeps none', async () => {
      const id = await send('fine');
      await store.recordSubmitted(id, 1, `e-5-${id}`);
      await store.applyReceipt({ carrierMessageId: `e-5-${id}`, stat: 'DELIVRD', err: '000', doneAt: null });
      expect(await errorOf(id)).toEqual({ status: 'delivered', error_code: null, error_reason: null });
    });
  });

  it('derives one state from several parts', () => {
    expect(finalMessageState(['delivered', 'delivered'])).toBe('delivered');
    expect(finalMessageState(['delivered', 'expired'])).toBe('expired');
    expect(finalMessageState(['failed', 'failed'])).toBe('failed');
    expect(finalMessageState(['delivered', 'failed'])).toBe('undelivered');
  });
});

describe('MessageRefundService (PostgreSQL)', () => {
  it('refunds the failed parts of a message once, however often it is asked', async () => {
    const db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    try {
      const accounts = new AccountsService(db, accountsRepositories(db), 'refund-pepper-'.padEnd(40, 'x'));
      const { company_id } = await accounts.createCompany({ name: 'Refund', balance: '1' });
      const accepted = await new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db)).accept(
        {
          companyId: company_id,
          sender: 'Acme',
          route: 'auto',
          body: 'z'.repeat(300),
          recipients: ['+33612345678'],
          reference: null,
          webhookUrl: null,
          scheduledAt: null,
        },
        DEFAULT_PRICES,
      );
      const id = accepted.messages[0].messageId;
      const store = new DispatchStore(db, new OutboxRepository(db));
      await store.recordSubmitted(id, 1, `r-${id}`);
      await store.recordPartFailed(id, 2, 'smpp:69', 'refused');
      const refunds = new MessageRefundService(db, new LedgerRepository(db));
      const outcomes = await Promise.all([refunds.refund(id), refunds.refund(id), refunds.refund(id)]);
      expect(outcomes.filter((o) => o.refunded > 0n)).toEqual([expect.objectContaining({ refunded: 100n })]);
      expect(await new LedgerRepository(db).findBalance(company_id)).toBe(10000n - 200n + 100n);
      const [row] = await db.query(`SELECT refunded FROM messages WHERE id = $1`, [id]);
      expect(row.refunded).toBe('0.0100');
    } finally {
      await db.destroy();
    }
  });
});

describe('DispatchStore under a receipt racing its submit response (PostgreSQL)', () => {
  it('applies every receipt, whichever of the two writers commits first', async () => {
    const db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    try {
      const accounts = new AccountsService(db, accountsRepositories(db), 'race-pepper-'.padEnd(40, 'x'));
      const { company_id } = await accounts.createCompany({ name: 'Race', balance: '10' });
      const acceptance = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
      const store = new DispatchStore(db, new OutboxRepository(db));
      const ids: string[] = [];
      for (let i = 0; i < 100; i++) {
        const accepted = await acceptance.accept(
          {
            companyId: company_id,
            sender: 'Acme',
            route: 'auto',
            body: `race ${i}`,
            recipients: ['+33612345678'],
            reference: null,
            webhookUrl: null,
            scheduledAt: null,
          },
          DEFAULT_PRICES,
        );
        ids.push(accepted.messages[0].messageId);
      }
      await Promise.all(
        ids.flatMap((id) => [
          store.recordSubmitted(id, 1, `race-${id}`),
          store.applyReceipt({ carrierMessageId: `race-${id}`, stat: 'DELIVRD', err: '000', doneAt: null }),
        ]),
      );
      const rows = await db.query(`SELECT status, count(*)::int AS n FROM messages WHERE id = ANY($1::uuid[]) GROUP BY status`, [ids]);
      expect(rows).toEqual([{ status: 'delivered', n: 100 }]);
    } finally {
      await db.destroy();
    }
  });
});
