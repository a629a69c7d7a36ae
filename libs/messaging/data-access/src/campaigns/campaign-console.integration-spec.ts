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
import { campaignProgress, findCampaignConsoleDetail } from './campaign-console';

describe('campaign progress and console detail (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let acceptance: CampaignAcceptanceService;
  let store: CampaignBatchStore;
  const prices: PriceRule[] = [{ prefix: '+', route: 'auto', price: parseMoney('0.0137') }];
  const numbers = (n: number, from: number) => Array.from({ length: n }, (_, i) => `+3362${String(from + i).padStart(7, '0')}`);
  const accept = (companyId: string, overrides: Partial<CampaignCommand> = {}) =>
    acceptance.accept(
      {
        companyId,
        sender: 'Shop',
        priority: 'high',
        reference: 'winter',
        webhookUrl: null,
        batchSize: 2,
        delayBetweenBatchesS: 30,
        scheduledAt: null,
        input: { mode: 1, recipients: numbers(6, 0), message: 'Winter sale' },
        ...overrides,
      },
      prices,
    );
  const setStatus = (batchId: string, index: number, status: string) =>
    db.query(`UPDATE messages SET status = $3 WHERE batch_id = $1 AND batch_index = $2`, [batchId, index, status]);

  beforeAll(async () => {
    db = await openTestDataSource('campaign-console-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'campaign-console-pepper-'.padEnd(40, 'x'));
    acceptance = new CampaignAcceptanceService(db, new LedgerRepository(db), new OutboxRepository(db), (input) =>
      parsePhoneNumber(input, { allowMissingPlus: true }),
    );
    store = new CampaignBatchStore(db, new MessageRepository(db));
  });
  afterAll(() => db.destroy());

  it("gives the live counters of several campaigns in the order asked, leaving out what is not the company's", async () => {
    const { company_id } = await accounts.createCompany({ name: 'Progress', balance: '10' });
    const other = await accounts.createCompany({ name: 'Progress other', balance: '10' });
    const first = await accept(company_id);
    const second = await accept(company_id, { input: { mode: 1, recipients: numbers(2, 50), message: 'Hi' } });
    const foreign = await accept(other.company_id);
    const [b1] = first.batches.map((b) => b.batchId);
    await store.start(b1);
    await setStatus(b1, 1, 'delivered');

    const progress = await campaignProgress(db, company_id, [second.campaignId, foreign.campaignId, 'nope', first.campaignId.toUpperCase()]);
    expect(progress).toEqual([
      {
        campaign_id: second.campaignId,
        status: 'queued',
        total: 2,
        summary: { queued: 2, processing: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 },
        done: 0,
        finished: false,
      },
      {
        campaign_id: first.campaignId,
        status: 'processing',
        total: 6,
        summary: { queued: 4, processing: 1, sent: 0, delivered: 1, failed: 0, cancelled: 0 },
        done: 0.1666,
        finished: false,
      },
    ]);
    expect(await campaignProgress(db, company_id, [])).toEqual([]);
    await expect(
      campaignProgress(
        db,
        company_id,
        Array.from({ length: 101 }, () => first.campaignId),
      ),
    ).rejects.toThrow(RangeError);
  });

  it('reports a campaign whose every message is final as completed and finished, and records it so', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Progress done', balance: '10' });
    const accepted = await accept(company_id, { input: { mode: 1, recipients: numbers(2, 80), message: 'Bye' } });
    const [batch] = accepted.batches.map((b) => b.batchId);
    await store.start(batch);
    await store.finish(batch);
    await setStatus(batch, 1, 'delivered');
    await setStatus(batch, 2, 'undelivered');
    const [progress] = await campaignProgress(db, company_id, [accepted.campaignId]);
    expect(progress).toMatchObject({ status: 'completed', done: 1, finished: true, summary: { delivered: 1, failed: 1 } });
    expect((await db.query(`SELECT status FROM campaigns WHERE id = $1`, [accepted.campaignId]))[0].status).toBe('completed');
  });

  it('shows the campaign as asked for (sender, text, route, priority, pacing, schedule) with its detail', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Console detail', balance: '10' });
    const scheduledAt = new Date(Date.now() + 3600_000);
    const accepted = await accept(company_id, { scheduledAt });
    const detail = await findCampaignConsoleDetail(db, company_id, accepted.campaignId);
    expect(detail).toMatchObject({
      campaign_id: accepted.campaignId,
      sender: 'Shop',
      message: 'Winter sale',
      route: 'auto',
      priority: 'high',
      batch_size: 2,
      delay_between_batches: 30,
      scheduled_time: scheduledAt.toISOString(),
      completed_at: null,
      cancelled_at: null,
      summary: { queued: 6, processing: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 },
    });
    expect(detail?.batch_details).toHaveLength(3);
    const individual = await accept(company_id, { input: { mode: 2, messages: [{ to: '+33620000900', message: 'Just you', reference: null }] } });
    expect((await findCampaignConsoleDetail(db, company_id, individual.campaignId))?.message).toBeNull();
    const other = await accounts.createCompany({ name: 'Console detail other', balance: '1' });
    expect(await findCampaignConsoleDetail(db, other.company_id, accepted.campaignId)).toBeNull();
  });
});
