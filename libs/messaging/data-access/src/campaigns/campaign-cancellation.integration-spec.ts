import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { parseMoney, type PriceRule } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { MessageRepository } from '../message.repository';
import { CampaignAcceptanceService, type CampaignCommand } from './campaign-acceptance';
import { CampaignBatchStore } from './campaign-batches';
import { CampaignCancellationService } from './campaign-cancellation';
import { findCampaignDetail } from './campaign-views';

describe('campaign cancellation (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let acceptance: CampaignAcceptanceService;
  let store: CampaignBatchStore;
  let cancellation: CampaignCancellationService;
  let ledger: LedgerRepository;
  const prices: PriceRule[] = [{ prefix: '+', route: 'auto', price: parseMoney('0.0137') }];
  let next = 0;
  const numbers = (n: number) => Array.from({ length: n }, () => `+3363${String(next++).padStart(7, '0')}`);

  /** Five messages in batches of 2, 2 and 1; the fourth is two parts: batch 2 costs 0.0411, batch 3 0.0137. */
  const accept = async (companyId: string, overrides: Partial<CampaignCommand> = {}) =>
    acceptance.accept(
      {
        companyId,
        sender: 'Shop',
        priority: 'normal',
        reference: null,
        webhookUrl: null,
        batchSize: 2,
        delayBetweenBatchesS: 30,
        scheduledAt: null,
        input: { mode: 2, messages: numbers(5).map((to, i) => ({ to, message: i === 3 ? 'y'.repeat(200) : 'Hello' })) },
        ...overrides,
      },
      prices,
    );
  const refunds = (companyId: string) =>
    db.query(`SELECT amount, reference FROM ledger_entries WHERE company_id = $1 AND kind = 'refund' ORDER BY id`, [companyId]);
  const campaignRow = async (id: string) =>
    (await db.query(`SELECT status, refunded, cancelled_at FROM campaigns WHERE id = $1`, [id]))[0] as {
      status: string;
      refunded: string;
      cancelled_at: Date | null;
    };

  beforeAll(async () => {
    db = await openTestDataSource('campaign-cancel-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'campaign-cancel-pepper-'.padEnd(40, 'x'));
    acceptance = new CampaignAcceptanceService(db, new LedgerRepository(db), new OutboxRepository(db), (input) =>
      parsePhoneNumber(input, { allowMissingPlus: true }),
    );
    store = new CampaignBatchStore(db, new MessageRepository(db));
    cancellation = new CampaignCancellationService(db, new LedgerRepository(db));
    ledger = new LedgerRepository(db);
  });
  afterAll(() => db.destroy());

  it('cancels the batches not started and refunds exactly their cost, once', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Cancel', balance: '1' });
    const accepted = await accept(company_id);
    expect(accepted.plan.totalCost).toBe(822n);
    const [b1, b2, b3] = accepted.batches.map((b) => b.batchId);
    await store.start(b1);

    const result = await cancellation.cancel(company_id, accepted.campaignId);
    expect(result).toEqual({
      outcome: 'cancelled',
      batchIds: [b2, b3],
      cancelledRecipients: 3,
      refunded: 548n,
      balance: parseMoney('1') - 822n + 548n,
      campaignStatus: 'processing',
    });
    expect(await ledger.findBalance(company_id)).toBe(parseMoney('1') - 274n);
    expect(await refunds(company_id)).toEqual([{ amount: '0.0548', reference: `campaign-cancel:${accepted.campaignId}:2` }]);
    expect(await campaignRow(accepted.campaignId)).toEqual({ status: 'processing', refunded: '0.0548', cancelled_at: null });
    const batches = await db.query(`SELECT status, cancelled_at IS NOT NULL AS cancelled FROM campaign_batches WHERE campaign_id = $1 ORDER BY position`, [
      accepted.campaignId,
    ]);
    expect(batches).toEqual([
      { status: 'processing', cancelled: false },
      { status: 'cancelled', cancelled: true },
      { status: 'cancelled', cancelled: true },
    ]);

    expect(await cancellation.cancel(company_id, accepted.campaignId)).toEqual({ outcome: 'nothing-to-cancel' });
    expect(await refunds(company_id)).toHaveLength(1);
    expect(await ledger.findBalance(company_id)).toBe(parseMoney('1') - 274n);
    expect(await store.start(b2)).toEqual({ kind: 'nothing', status: 'cancelled' });
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM messages WHERE batch_id = ANY($1::uuid[])`, [[b2, b3]]);
    expect(n).toBe(0);
    const view = await findCampaignDetail(db, company_id, accepted.campaignId);
    expect(view).toMatchObject({ refunded: 0.0548, summary: { processing: 2, cancelled: 3 } });
  });

  it('cancels the whole campaign when no batch had started, scheduled batches included', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Whole', balance: '1' });
    const accepted = await accept(company_id, { scheduledAt: new Date(Date.now() + 3_600_000) });
    const result = await cancellation.cancel(company_id, accepted.campaignId);
    expect(result).toMatchObject({ outcome: 'cancelled', cancelledRecipients: 5, refunded: 822n, balance: parseMoney('1'), campaignStatus: 'cancelled' });
    expect(await campaignRow(accepted.campaignId)).toEqual({ status: 'cancelled', refunded: '0.0822', cancelled_at: expect.any(Date) });
    expect(await refunds(company_id)).toEqual([{ amount: '0.0822', reference: `campaign-cancel:${accepted.campaignId}:1` }]);
    expect(await findCampaignDetail(db, company_id, accepted.campaignId)).toMatchObject({ status: 'cancelled', summary: { cancelled: 5, queued: 0 } });
  });

  it('cancels nothing once every batch has started', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Started', balance: '1' });
    const accepted = await accept(company_id);
    for (const batch of accepted.batches) await store.start(batch.batchId);
    expect(await cancellation.cancel(company_id, accepted.campaignId)).toEqual({ outcome: 'nothing-to-cancel' });
    expect(await refunds(company_id)).toEqual([]);
    expect(await campaignRow(accepted.campaignId)).toMatchObject({ status: 'processing', refunded: '0.0000' });
  });

  it('lets exactly one of a cancel and a start of the same batch win, the money consistent either way', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Race', balance: '5' });
    for (let round = 0; round < 12; round++) {
      const accepted = await accept(company_id, { batchSize: 3 });
      const [first, second] = accepted.batches.map((b) => b.batchId);
      const before = await ledger.findBalance(company_id);
      const [cancelled, started] = await Promise.all([cancellation.cancel(company_id, accepted.campaignId), store.start(first)]);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM messages WHERE batch_id = $1`, [first]);
      if (started.kind === 'submit') {
        expect(n).toBe(3);
        expect(cancelled).toMatchObject({ outcome: 'cancelled', batchIds: [second], refunded: 411n, campaignStatus: 'processing' });
      } else {
        expect(started).toEqual({ kind: 'nothing', status: 'cancelled' });
        expect(n).toBe(0);
        expect(cancelled).toMatchObject({ outcome: 'cancelled', batchIds: [first, second], refunded: 822n, campaignStatus: 'cancelled' });
      }
      const refunded = cancelled.outcome === 'cancelled' ? cancelled.refunded : -1n;
      expect(await ledger.findBalance(company_id)).toBe((before ?? 0n) + refunded);
      expect(parseMoney((await campaignRow(accepted.campaignId)).refunded)).toBe(refunded);
    }
  });

  it('lets one of two concurrent cancels refund, the other finds nothing', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Twice', balance: '1' });
    const accepted = await accept(company_id);
    const results = await Promise.all([cancellation.cancel(company_id, accepted.campaignId), cancellation.cancel(company_id, accepted.campaignId)]);
    expect(results.map((r) => r.outcome).sort()).toEqual(['cancelled', 'nothing-to-cancel']);
    expect(await refunds(company_id)).toEqual([{ amount: '0.0822', reference: `campaign-cancel:${accepted.campaignId}:1` }]);
    expect(await ledger.findBalance(company_id)).toBe(parseMoney('1'));
  });

  it('does not cancel another company campaign', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Mine', balance: '1' });
    const other = await accounts.createCompany({ name: 'Theirs', balance: '1' });
    const accepted = await accept(company_id);
    expect(await cancellation.cancel(other.company_id, accepted.campaignId)).toEqual({ outcome: 'not-found' });
    expect(await cancellation.cancel(company_id, 'campaign-1')).toEqual({ outcome: 'not-found' });
    expect(await campaignRow(accepted.campaignId)).toMatchObject({ status: 'queued', refunded: '0.0000' });
    expect(await refunds(other.company_id)).toEqual([]);
  });
});
