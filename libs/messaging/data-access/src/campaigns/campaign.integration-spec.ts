import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { DEFAULT_PRICES, parseMoney } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import type { OutboxJob } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { MessageRepository } from '../message.repository';
import { CampaignAcceptanceService, CampaignEmptyError, CampaignNotAffordableError, type CampaignCommand } from './campaign-acceptance';
import { CampaignBatchStore } from './campaign-batches';
import { completeFinishedCampaigns } from './campaign-completion';

describe('campaigns (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let service: CampaignAcceptanceService;
  const committed: OutboxJob[][] = [];
  const validate = (input: string) => parsePhoneNumber(input, { allowMissingPlus: true });
  const numbers = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `+3361${String(from + i).padStart(7, '0')}`);

  const command = (companyId: string, overrides: Partial<CampaignCommand> = {}): CampaignCommand => ({
    companyId,
    sender: 'Shop',
    priority: 'normal',
    reference: 'spring-sale',
    webhookUrl: null,
    batchSize: 1000,
    delayBetweenBatchesS: 0,
    scheduledAt: null,
    input: { mode: 1, recipients: numbers(3), message: 'Spring sale: 20% off' },
    ...overrides,
  });

  beforeAll(async () => {
    db = await openTestDataSource('campaign-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'campaign-pepper-'.padEnd(40, 'x'));
    service = new CampaignAcceptanceService(db, new LedgerRepository(db), new OutboxRepository(db), validate, {
      onCommitted: async (outbox) => committed.push(outbox.jobs),
    });
  });
  afterAll(() => db.destroy());

  it('charges the whole campaign in one ledger entry and stores one row and one job per batch', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Bulk', balance: '100' });
    const accepted = await service.accept(
      command(company_id, {
        batchSize: 1000,
        delayBetweenBatchesS: 60,
        input: { mode: 1, recipients: [...numbers(2500), 'nope', numbers(1)[0]], message: 'Hi' },
      }),
      DEFAULT_PRICES,
      new Date('2026-11-22T10:00:00Z'),
    );
    expect(accepted.plan).toMatchObject({ total: 2502, accepted: 2500, duplicates: 1, totalCost: 2500n * 100n });
    expect(accepted.plan.failedNumbers).toEqual([{ number: 'nope', error: 'Invalid phone number format' }]);
    expect(accepted.balance).toBe(parseMoney('100') - 250_000n);
    expect(accepted.batches.map((b) => [b.position, b.recipients, b.scheduledAt.toISOString()])).toEqual([
      [1, 1000, '2026-11-22T10:00:00.000Z'],
      [2, 1000, '2026-11-22T10:01:00.000Z'],
      [3, 500, '2026-11-22T10:02:00.000Z'],
    ]);
    const ledger = await db.query(`SELECT amount FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [company_id]);
    expect(ledger).toEqual([{ amount: '-25.0000' }]);
    const jobs = committed[committed.length - 1];
    expect(jobs.map((job) => [job.jobName, job.priority, job.notBefore.toISOString()])).toEqual([
      ['campaign.batch', 10, '2026-11-22T10:00:00.000Z'],
      ['campaign.batch', 10, '2026-11-22T10:01:00.000Z'],
      ['campaign.batch', 10, '2026-11-22T10:02:00.000Z'],
    ]);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM messages WHERE campaign_id = $1`, [accepted.campaignId]);
    expect(n).toBe(0);
  });

  it('stores, queues and charges nothing when the balance does not cover the whole campaign', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Short', balance: '0.05' });
    const attempt = service.accept(command(company_id, { input: { mode: 1, recipients: numbers(6), message: 'Hi' } }), DEFAULT_PRICES);
    await expect(attempt).rejects.toMatchObject({ constructor: CampaignNotAffordableError, balance: 500n, required: 600n, recipients: 6 });
    expect(await new LedgerRepository(db).findBalance(company_id)).toBe(500n);
    const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM campaigns WHERE company_id = $1`, [company_id]);
    expect(n).toBe(0);
  });

  describe('a connection lost while the transaction ran (a PostgreSQL restart)', () => {
    const lost = () => Object.assign(new Error('Connection terminated unexpectedly'), { code: undefined });
    /** The real DataSource, whose transaction either commits and then loses its answer, or loses it before committing. */
    const losingAnswer = (commitFirst: boolean) =>
      new Proxy(db, {
        get(target, property, receiver) {
          if (property !== 'transaction') return Reflect.get(target, property, receiver) as unknown;
          return async (work: (manager: unknown) => Promise<unknown>) => {
            if (commitFirst) await target.transaction(work as never);
            throw lost();
          };
        },
      });
    const serviceOn = (source: DataSource) =>
      new CampaignAcceptanceService(source, new LedgerRepository(db), new OutboxRepository(db), validate, { verification: { timeoutMs: 2_000, pollMs: 10 } });

    it('accepts a campaign whose charge committed, its jobs left to the outbox sweeper', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Committed', balance: '1' });
      const accepted = await serviceOn(losingAnswer(true)).accept(command(company_id), DEFAULT_PRICES);
      expect(accepted.balance).toBe(parseMoney('1') - 300n);
      const campaigns = await db.query(`SELECT id FROM campaigns WHERE company_id = $1`, [company_id]);
      expect(campaigns).toEqual([{ id: accepted.campaignId }]);
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM outbox WHERE enqueued_at IS NULL AND job_id = $1`, [
        `batch-${accepted.batches[0].batchId}`,
      ]);
      expect(n).toBe(1);
    });

    it('refuses, with the error, a campaign that was not committed', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Lost', balance: '1' });
      await expect(serviceOn(losingAnswer(false)).accept(command(company_id), DEFAULT_PRICES)).rejects.toThrow('Connection terminated unexpectedly');
      expect(await new LedgerRepository(db).findBalance(company_id)).toBe(parseMoney('1'));
    });
  });

  it('refuses a campaign with no valid entry', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Empty', balance: '1' });
    await expect(service.accept(command(company_id, { input: { mode: 1, recipients: ['x', 'y'], message: 'Hi' } }), DEFAULT_PRICES)).rejects.toBeInstanceOf(
      CampaignEmptyError,
    );
  });

  it('makes a batch into its messages once, with each message its text, reference and sender (mode 2)', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Individual', balance: '10' });
    const accepted = await service.accept(
      command(company_id, {
        input: {
          mode: 2,
          messages: [
            { to: '+33612345678', message: 'Hello Ann', reference: 'a-1' },
            { to: '+447400123456', message: 'Hello Bob', from: 'Other' },
          ],
        },
      }),
      DEFAULT_PRICES,
    );
    const store = new CampaignBatchStore(db, new MessageRepository(db));
    const [batch] = accepted.batches;
    const [first, second] = await Promise.all([store.start(batch.batchId), store.start(batch.batchId)]);
    const idsOf = (work: typeof first) => (work.kind === 'submit' ? [...work.messageIds].sort() : work.status);
    expect(idsOf(first)).toHaveLength(2);
    expect(idsOf(second)).toEqual(idsOf(first));
    const rows = await db.query(`SELECT recipient, body, reference, sender, status, batch_index, cost FROM messages WHERE batch_id = $1 ORDER BY batch_index`, [
      batch.batchId,
    ]);
    expect(rows).toEqual([
      { recipient: '+33612345678', body: 'Hello Ann', reference: 'a-1', sender: 'Shop', status: 'queued', batch_index: 1, cost: '0.0100' },
      { recipient: '+447400123456', body: 'Hello Bob', reference: 'spring-sale', sender: 'Other', status: 'queued', batch_index: 2, cost: '0.0100' },
    ]);
    await store.finish(batch.batchId);
    expect(await store.start(batch.batchId)).toEqual({ kind: 'nothing', status: 'dispatched' });
  });

  it('makes a batch in slices when asked, pausing between them inside its one transaction', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Sliced', balance: '10' });
    const accepted = await service.accept(command(company_id, { input: { mode: 1, recipients: numbers(250, 5_000), message: 'Hi' } }), DEFAULT_PRICES);
    const [batch] = accepted.batches;
    const seenOutside: number[] = [];
    const between = async () => {
      const [{ n }] = await db.query(`SELECT count(*)::int AS n FROM messages WHERE batch_id = $1`, [batch.batchId]);
      seenOutside.push(n);
    };
    const work = await new CampaignBatchStore(db, new MessageRepository(db)).start(batch.batchId, new Date(), { slice: 100, between });
    expect(work.kind === 'submit' ? work.messageIds.length : work).toBe(250);
    // Two pauses (after 100 and 200 rows), and nothing of the batch committed during them.
    expect(seenOutside).toEqual([0, 0]);
    const rows: { n: number; first: number; last: number }[] = await db.query(
      `SELECT count(*)::int AS n, min(batch_index) AS first, max(batch_index) AS last FROM messages WHERE batch_id = $1`,
      [batch.batchId],
    );
    expect(rows).toEqual([{ n: 250, first: 1, last: 250 }]);
  });

  it('completes a campaign once every batch is dispatched and every message final, telling its webhook once', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Finish', balance: '1' });
    const accepted = await service.accept(
      command(company_id, { webhookUrl: 'https://example.com/hooks', input: { mode: 1, recipients: numbers(2, 500), message: 'Hi' } }),
      DEFAULT_PRICES,
    );
    const store = new CampaignBatchStore(db, new MessageRepository(db));
    const [batch] = accepted.batches;
    await store.start(batch.batchId);
    expect((await completeFinishedCampaigns(db, { campaignId: accepted.campaignId })).completed).toBe(0);
    await store.finish(batch.batchId);
    await db.query(`UPDATE messages SET status = 'sent' WHERE batch_id = $1 AND batch_index = 1`, [batch.batchId]);
    await db.query(`UPDATE messages SET status = 'delivered' WHERE batch_id = $1 AND batch_index = 2`, [batch.batchId]);
    expect((await completeFinishedCampaigns(db, { campaignId: accepted.campaignId })).completed).toBe(0);
    await db.query(`UPDATE messages SET status = 'undelivered' WHERE batch_id = $1`, [batch.batchId]);
    const done = await completeFinishedCampaigns(db, { campaignId: accepted.campaignId });
    expect(done.completed).toBe(1);
    expect(done.outbox.jobs).toEqual([expect.objectContaining({ jobName: 'campaign.event', jobId: `campaign-completed-${accepted.campaignId}` })]);
    expect(done.outbox.ids).toHaveLength(1);
    const [{ status }] = await db.query(`SELECT status FROM campaigns WHERE id = $1`, [accepted.campaignId]);
    expect(status).toBe('completed');
    expect((await completeFinishedCampaigns(db, { campaignId: accepted.campaignId })).completed).toBe(0);
  });

  it("spaces out the sweeper's checks of a campaign still waiting for receipts; a request about it always checks", async () => {
    const { company_id } = await accounts.createCompany({ name: 'Late receipts', balance: '1' });
    const accepted = await service.accept(command(company_id, { input: { mode: 1, recipients: numbers(2, 600), message: 'Hi' } }), DEFAULT_PRICES);
    const store = new CampaignBatchStore(db, new MessageRepository(db));
    const [batch] = accepted.batches;
    await store.start(batch.batchId);
    await store.finish(batch.batchId);
    await db.query(`UPDATE campaigns SET created_at = now() - interval '100 seconds' WHERE id = $1`, [accepted.campaignId]);
    await db.query(`UPDATE messages SET status = 'sent' WHERE batch_id = $1`, [batch.batchId]);
    const nextCheck = async () =>
      Number((await db.query(`SELECT extract(epoch FROM completion_check_at - now()) AS s FROM campaigns WHERE id = $1`, [accepted.campaignId]))[0].s);
    const statusOf = async () => (await db.query(`SELECT status FROM campaigns WHERE id = $1`, [accepted.campaignId]))[0].status as string;

    await completeFinishedCampaigns(db);
    // A tenth of its age (100 s) from now.
    expect(await nextCheck()).toBeGreaterThan(8);
    expect(await nextCheck()).toBeLessThanOrEqual(10);
    await db.query(`UPDATE messages SET status = 'delivered' WHERE batch_id = $1`, [batch.batchId]);
    await completeFinishedCampaigns(db);
    expect(await statusOf()).toBe('processing');
    await db.query(`UPDATE campaigns SET completion_check_at = now() - interval '1 second' WHERE id = $1`, [accepted.campaignId]);
    await completeFinishedCampaigns(db);
    expect(await statusOf()).toBe('completed');

    const other = await service.accept(command(company_id, { input: { mode: 1, recipients: numbers(1, 700), message: 'Hi' } }), DEFAULT_PRICES);
    const [otherBatch] = other.batches;
    await store.start(otherBatch.batchId);
    await store.finish(otherBatch.batchId);
    await db.query(`UPDATE campaigns SET created_at = now() - interval '1 day' WHERE id = $1`, [other.campaignId]);
    await db.query(`UPDATE messages SET status = 'sent' WHERE batch_id = $1`, [otherBatch.batchId]);
    const checkAtOfOther = async () =>
      (await db.query(`SELECT completion_check_at FROM campaigns WHERE id = $1`, [other.campaignId]))[0].completion_check_at as Date | null;
    // A request checks but leaves the sweeper's schedule alone.
    expect((await completeFinishedCampaigns(db, { campaignId: other.campaignId })).completed).toBe(0);
    expect(await checkAtOfOther()).toBeNull();
    await completeFinishedCampaigns(db);
    // At most a minute, however old the campaign.
    const wait = ((await checkAtOfOther())?.getTime() ?? 0) - Date.now();
    expect(wait).toBeGreaterThan(50_000);
    expect(wait).toBeLessThanOrEqual(60_000);
    await db.query(`UPDATE messages SET status = 'delivered' WHERE batch_id = $1`, [otherBatch.batchId]);
    expect((await completeFinishedCampaigns(db, { companyId: company_id })).completed).toBe(1);
  });
});
