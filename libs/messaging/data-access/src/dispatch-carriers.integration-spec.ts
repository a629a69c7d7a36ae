import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { DispatchStore } from './dispatch-store';
import { MessageRepository } from './message.repository';
import { SmsAcceptanceService } from './sms-acceptance';

/**
 * Parts of several carriers (decision 0057): each records the carrier that took it and its cost,
 * and a receipt finds its part by carrier and carrier id, since two carriers may give one id.
 */
describe('DispatchStore with several carriers (PostgreSQL)', () => {
  let db: DataSource;
  let store: DispatchStore;
  let send: (count: number) => Promise<string[]>;
  let recipient = 0;
  const run = Date.now().toString(36);

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    store = new DispatchStore(db, new OutboxRepository(db));
    const accounts = new AccountsService(db, accountsRepositories(db), 'carriers-pepper-'.padEnd(40, 'x'));
    const { company_id } = await accounts.createCompany({ name: `Carriers ${run}`, balance: '100' });
    const acceptance = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db));
    send = async (count) => {
      const recipients = Array.from({ length: count }, () => `+4479${String((recipient += 1)).padStart(8, '0')}`);
      const accepted = await acceptance.accept(
        { companyId: company_id, sender: 'Acme', route: 'auto', body: 'hi', recipients, reference: null, webhookUrl: null, scheduledAt: null },
        DEFAULT_PRICES,
      );
      return accepted.messages.map((m) => m.messageId);
    };
  });
  afterAll(() => db.destroy());

  const parts = async (ids: readonly string[]) => {
    const rows: { message_id: string; status: string; carrier: string | null; carrier_cost: string | null; timed_out_carriers: string[] | null }[] =
      await db.query(`SELECT message_id, status, carrier, carrier_cost::text, timed_out_carriers FROM message_parts WHERE message_id = ANY($1::uuid[])`, [ids]);
    return Object.fromEntries(rows.map(({ message_id, ...part }) => [message_id, part]));
  };

  it('records the carrier, its cost and the carriers timed out on; a receipt settles only its own carrier’s part of a shared id', async () => {
    const [onA, onB] = await send(2);
    const shared = `same-${run}`;
    await store.recordSubmittedMany([
      { messageId: onA, partIndex: 1, carrierMessageId: shared, carrier: 'carrier-a', carrierCost: '0.0040', multipart: false, webhook: false },
      {
        messageId: onB,
        partIndex: 1,
        carrierMessageId: shared,
        carrier: 'carrier-b',
        carrierCost: null,
        timedOutCarriers: ['carrier-a'],
        multipart: false,
        webhook: false,
      },
    ]);
    expect(await parts([onA, onB])).toEqual({
      [onA]: { status: 'submitted', carrier: 'carrier-a', carrier_cost: '0.0040', timed_out_carriers: null },
      [onB]: { status: 'submitted', carrier: 'carrier-b', carrier_cost: null, timed_out_carriers: ['carrier-a'] },
    });

    await store.applyReceipts([{ carrierMessageId: shared, carrier: 'carrier-b', stat: 'UNDELIV', err: '001', doneAt: null }]);
    expect((await parts([onA, onB]))[onA].status).toBe('submitted');
    expect((await parts([onA, onB]))[onB].status).toBe('undelivered');
    await store.applyReceipts([{ carrierMessageId: shared, carrier: 'carrier-a', stat: 'DELIVRD', err: '000', doneAt: null }]);
    expect((await parts([onA, onB]))[onA].status).toBe('delivered');
    expect((await parts([onA, onB]))[onB].status).toBe('undelivered');
  });

  it('keeps a receipt that overtook its part for that carrier’s part only, and applies it when the part is recorded', async () => {
    const [onA, onB] = await send(2);
    const shared = `early-${run}`;
    // Carrier b's receipt comes before either part is recorded; carrier a's part is recorded first.
    await store.applyReceipts([{ carrierMessageId: shared, carrier: 'carrier-b', stat: 'DELIVRD', err: '000', doneAt: null }]);
    await store.recordSubmittedMany([{ messageId: onA, partIndex: 1, carrierMessageId: shared, carrier: 'carrier-a', multipart: false, webhook: false }]);
    expect((await parts([onA]))[onA].status).toBe('submitted');
    await store.recordSubmittedMany([{ messageId: onB, partIndex: 1, carrierMessageId: shared, carrier: 'carrier-b', multipart: false, webhook: true }]);
    expect((await parts([onB]))[onB].status).toBe('delivered');
    const stored: { carrier: string; applied: boolean }[] = await db.query(
      `SELECT carrier, applied_at IS NOT NULL AS applied FROM carrier_receipts WHERE carrier_message_id = $1`,
      [shared],
    );
    expect(stored).toEqual([{ carrier: 'carrier-b', applied: true }]);
  });

  it('keeps the carriers a part timed out on across attempts, merged, while it is pending, and loads them with it', async () => {
    const [twice, once, untouched] = await send(3);
    await store.recordTimedOut(twice, 1, ['carrier-a']);
    await store.recordTimedOut(twice, 1, ['carrier-b', 'carrier-a']);
    await store.recordTimedOut(once, 1, ['carrier-a']);
    const loaded = await store.loadMany([twice, once, untouched]);
    expect(loaded.map((m) => m.parts[0].timedOutCarriers)).toEqual([['carrier-a', 'carrier-b'], ['carrier-a'], undefined]);
    expect(loaded[2].parts[0]).not.toHaveProperty('timedOutCarriers');

    // Accepted at last: the record keeps the earlier attempts' carriers with this attempt's.
    await store.recordSubmittedMany([
      {
        messageId: twice,
        partIndex: 1,
        carrierMessageId: `merged-${run}`,
        carrier: 'carrier-d',
        timedOutCarriers: ['carrier-c', 'carrier-b'],
        multipart: false,
        webhook: false,
      },
      { messageId: once, partIndex: 1, carrierMessageId: `kept-${run}`, carrier: 'carrier-b', multipart: false, webhook: false },
    ]);
    expect(await parts([twice, once])).toMatchObject({
      [twice]: { status: 'submitted', carrier: 'carrier-d', timed_out_carriers: ['carrier-a', 'carrier-b', 'carrier-c'] },
      [once]: { status: 'submitted', carrier: 'carrier-b', timed_out_carriers: ['carrier-a'] },
    });

    // Not pending any more: a late record changes nothing.
    await store.recordTimedOut(once, 1, ['carrier-z']);
    expect((await parts([once]))[once].timed_out_carriers).toEqual(['carrier-a']);
  });

  it('takes a receipt without a carrier, and a part recorded without one, as the default carrier’s', async () => {
    const [unnamed] = await send(1);
    const id = `unnamed-${run}`;
    await store.recordSubmittedMany([{ messageId: unnamed, partIndex: 1, carrierMessageId: id, multipart: false, webhook: false }]);
    await store.applyReceipts([{ carrierMessageId: id, carrier: 'carrier-a', stat: 'DELIVRD', err: '000', doneAt: null }]);
    expect((await parts([unnamed]))[unnamed].status).toBe('submitted');
    await store.applyReceipts([{ carrierMessageId: id, stat: 'DELIVRD', err: '000', doneAt: null }]);
    expect((await parts([unnamed]))[unnamed]).toMatchObject({ status: 'delivered', carrier: null });
  });
});
