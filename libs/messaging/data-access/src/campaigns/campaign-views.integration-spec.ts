import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { parseMoney, type PriceRule } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { CampaignAcceptanceService, type CampaignCommand } from './campaign-acceptance';
import { DispatchStore } from '../dispatch-store';
import { MessageRefundService } from '../message-refund';
import { MessageRepository } from '../message.repository';
import { CampaignBatchStore } from './campaign-batches';
import { CampaignCancellationService } from './campaign-cancellation';
import { CampaignWebhookEvents } from './campaign-webhook-events';
import { findCampaignDetail, listCampaignRecipients, listCampaignViews, type CampaignView, type RecipientState } from './campaign-views';

describe('campaign views (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let acceptance: CampaignAcceptanceService;
  let store: CampaignBatchStore;
  const prices: PriceRule[] = [{ prefix: '+', route: 'auto', price: parseMoney('0.0137') }];
  const numbers = (n: number, from: number) => Array.from({ length: n }, (_, i) => `+3362${String(from + i).padStart(7, '0')}`);

  const accept = async (companyId: string, overrides: Partial<CampaignCommand> = {}) =>
    acceptance.accept(
      {
        companyId,
        sender: 'Shop',
        priority: 'normal',
        reference: 'autumn',
        webhookUrl: null,
        batchSize: 2,
        delayBetweenBatchesS: 60,
        scheduledAt: null,
        input: { mode: 1, recipients: [...numbers(6, 0), 'bad'], message: 'Autumn sale' },
        ...overrides,
      },
      prices,
    );
  const setStatus = (batchId: string, index: number, status: string) =>
    db.query(`UPDATE messages SET status = $3, sent_at = now(), error_code = $4 WHERE batch_id = $1 AND batch_index = $2`, [
      batchId,
      index,
      status,
      status === 'undelivered' ? 'UNDELIV' : null,
    ]);
  const recipients = (companyId: string, campaignId: string, state: RecipientState | null = null, page = 1, limit = 50) =>
    listCampaignRecipients(db, companyId, campaignId, state, { page, limit });
  const expectAddsUp = (view: CampaignView | null) => expect(Object.values(view?.summary ?? {}).reduce((a, b) => a + b, 0)).toBe(view?.successful);

  beforeAll(async () => {
    db = await openTestDataSource('campaign-views-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'campaign-views-pepper-'.padEnd(40, 'x'));
    acceptance = new CampaignAcceptanceService(db, new LedgerRepository(db), new OutboxRepository(db), (input) =>
      parsePhoneNumber(input, { allowMissingPlus: true }),
    );
    store = new CampaignBatchStore(db, new MessageRepository(db));
  });
  afterAll(() => db.destroy());

  it('follows a campaign from accepted to completed, the summary adding up at every step', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Views', balance: '10' });
    const accepted = await accept(company_id);
    const [b1, b2] = accepted.batches.map((b) => b.batchId);
    const view = () => findCampaignDetail(db, company_id, accepted.campaignId);

    const fresh = await view();
    expect(fresh).toMatchObject({
      campaign_id: accepted.campaignId,
      reference: 'autumn',
      status: 'queued',
      total_recipients: 7,
      successful: 6,
      failed: 1,
      total_cost: 0.0822,
      refunded: 0,
      batches: 3,
      summary: { queued: 6, processing: 0, sent: 0, delivered: 0, failed: 0, cancelled: 0 },
      failed_numbers: [{ number: 'bad', error: 'Invalid phone number format' }],
    });
    expect(fresh?.batch_details.map((b) => [b.position, b.recipients, b.status, b.started_at])).toEqual([
      [1, 2, 'queued', null],
      [2, 2, 'queued', null],
      [3, 2, 'queued', null],
    ]);

    await store.start(b1);
    await store.finish(b1);
    await setStatus(b1, 1, 'delivered');
    await setStatus(b1, 2, 'sent');
    await store.start(b2);
    const running = await view();
    expect(running).toMatchObject({ status: 'processing', summary: { queued: 2, processing: 2, sent: 1, delivered: 1, failed: 0, cancelled: 0 } });
    expect(running?.batch_details.map((b) => b.status)).toEqual(['dispatched', 'processing', 'queued']);
    expect(running?.batch_details[0].dispatched_at).toEqual(expect.any(String));
    expectAddsUp(running);

    expect((await new CampaignCancellationService(db, new LedgerRepository(db)).cancel(company_id, accepted.campaignId)).outcome).toBe('cancelled');
    await store.finish(b2);
    await setStatus(b2, 1, 'undelivered');
    await setStatus(b2, 2, 'expired');
    const waiting = await view();
    expect(waiting).toMatchObject({
      status: 'processing',
      refunded: 0.0274,
      summary: { queued: 0, processing: 0, sent: 1, delivered: 1, failed: 2, cancelled: 2 },
    });
    expectAddsUp(waiting);
    expect(waiting?.batch_details[2].status).toBe('cancelled');

    await setStatus(b1, 2, 'delivered');
    const done = await view();
    expect(done).toMatchObject({ status: 'completed', summary: { queued: 0, processing: 0, sent: 0, delivered: 2, failed: 2, cancelled: 2 } });
    expectAddsUp(done);
    const [stored] = await db.query(`SELECT status, completed_at FROM campaigns WHERE id = $1`, [accepted.campaignId]);
    expect(stored).toEqual({ status: 'completed', completed_at: expect.any(Date) });
  });

  it('lists each recipient in batch order, paged across batches, from messages or from the batch arrays', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Recipients', balance: '10' });
    const accepted = await accept(company_id, {
      input: { mode: 2, messages: numbers(6, 100).map((to, i) => ({ to, message: i === 3 ? 'x'.repeat(161) : `Hi ${i}`, reference: i === 4 ? 'own' : null })) },
    });
    const [b1, b2, b3] = accepted.batches.map((b) => b.batchId);
    await store.start(b1);
    await setStatus(b1, 2, 'delivered');
    await db.query(`UPDATE campaign_batches SET status = 'cancelled', cancelled_at = now() WHERE id = $1`, [b3]);

    const all = await recipients(company_id, accepted.campaignId);
    expect(all?.total).toBe(6);
    expect(all?.items.map((r) => [r.to, r.batch_id, r.status, r.message_id === null, r.reference, r.cost])).toEqual([
      ['+33620000100', b1, 'processing', false, 'autumn', 0.0137],
      ['+33620000101', b1, 'delivered', false, 'autumn', 0.0137],
      ['+33620000102', b2, 'queued', true, 'autumn', 0.0137],
      ['+33620000103', b2, 'queued', true, 'autumn', 0.0274],
      ['+33620000104', b3, 'cancelled', true, 'own', 0.0137],
      ['+33620000105', b3, 'cancelled', true, 'autumn', 0.0137],
    ]);
    expect(all?.items[1]).toMatchObject({ sent_at: expect.any(String), completed_at: null, error_code: null });

    const page2 = await recipients(company_id, accepted.campaignId, null, 2, 4);
    expect(page2).toMatchObject({ page: 2, limit: 4, total: 6 });
    expect(page2?.items.map((r) => r.to)).toEqual(['+33620000104', '+33620000105']);
    const middle = await recipients(company_id, accepted.campaignId, null, 2, 3);
    expect(middle?.items.map((r) => r.to)).toEqual(['+33620000103', '+33620000104', '+33620000105']);
    expect((await recipients(company_id, accepted.campaignId, null, 3, 3))?.items).toEqual([]);
    expect((await recipients(company_id, accepted.campaignId, null, 2, 1))?.items.map((r) => [r.to, r.status])).toEqual([['+33620000101', 'delivered']]);

    const only = async (state: RecipientState) => (await recipients(company_id, accepted.campaignId, state))?.items.map((r) => r.to);
    expect(await only('processing')).toEqual(['+33620000100']);
    expect(await only('delivered')).toEqual(['+33620000101']);
    expect(await only('queued')).toEqual(['+33620000102', '+33620000103']);
    expect(await only('cancelled')).toEqual(['+33620000104', '+33620000105']);
    expect(await only('failed')).toEqual([]);
    expect(await recipients(company_id, accepted.campaignId, 'cancelled', 1, 1)).toMatchObject({ total: 2, items: [{ to: '+33620000104' }] });
  });

  it('lists the company campaigns newest first with their summary, filtered, and records completions it finds', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Lister', balance: '10' });
    const first = await accept(company_id, { reference: 'one', batchSize: 10 });
    const second = await accept(company_id, { reference: 'two' });
    const third = await accept(company_id, { reference: 'two' });
    const [batch] = first.batches;
    await store.start(batch.batchId);
    await store.finish(batch.batchId);
    await db.query(`UPDATE messages SET status = 'delivered' WHERE batch_id = $1`, [batch.batchId]);

    const completed = await listCampaignViews(db, company_id, { status: 'completed', reference: null }, { page: 1, limit: 10 });
    expect(completed.items.map((c) => c.campaign_id)).toEqual([first.campaignId]);
    expect((await db.query(`SELECT status FROM campaigns WHERE id = $1`, [first.campaignId]))[0].status).toBe('completed');
    const page = await listCampaignViews(db, company_id, { status: null, reference: null }, { page: 1, limit: 2 });
    expect(page).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.items.map((c) => c.campaign_id)).toEqual([third.campaignId, second.campaignId]);
    expect(page.items[0]).toMatchObject({ status: 'queued', batches: 3, summary: { queued: 6 } });
    expect(page.items[0]).not.toHaveProperty('batch_details');
    const next = await listCampaignViews(db, company_id, { status: null, reference: null }, { page: 2, limit: 2 });
    expect(next.items.map((c) => [c.campaign_id, c.status, c.batches, c.summary.delivered])).toEqual([[first.campaignId, 'completed', 1, 6]]);

    const two = await listCampaignViews(db, company_id, { status: 'queued', reference: 'two' }, { page: 1, limit: 10 });
    expect(two.items.map((c) => c.campaign_id)).toEqual([third.campaignId, second.campaignId]);
    expect((await listCampaignViews(db, company_id, { status: null, reference: 'none' }, { page: 1, limit: 10 })).total).toBe(0);
  });

  it('does not complete a campaign while a message still waits for its receipt', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Waiting', balance: '10' });
    const accepted = await accept(company_id, { batchSize: 10 });
    const [batch] = accepted.batches;
    await store.start(batch.batchId);
    await store.finish(batch.batchId);
    await db.query(`UPDATE messages SET status = CASE WHEN batch_index = 1 THEN 'sent' ELSE 'failed' END WHERE batch_id = $1`, [batch.batchId]);
    const view = await findCampaignDetail(db, company_id, accepted.campaignId);
    expect(view).toMatchObject({ status: 'processing', summary: { sent: 1, failed: 5 } });
    await listCampaignViews(db, company_id, { status: null, reference: null }, { page: 1, limit: 10 });
    expect((await db.query(`SELECT status FROM campaigns WHERE id = $1`, [accepted.campaignId]))[0].status).toBe('processing');
  });

  it('counts as refunded its cancelled batches and the parts of its messages that never reached a carrier', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Refunded', balance: '10' });
    const accepted = await accept(company_id, {
      delayBetweenBatchesS: 0,
      input: { mode: 2, messages: numbers(4, 200).map((to, i) => ({ to, message: i === 0 ? 'y'.repeat(200) : `Hi ${i}`, reference: null })) },
    });
    const [b1] = accepted.batches.map((b) => b.batchId);
    const work = await store.start(b1);
    await store.finish(b1);
    expect(await new CampaignCancellationService(db, new LedgerRepository(db)).cancel(company_id, accepted.campaignId)).toMatchObject({ refunded: 274n });
    const [twoParts, onePart] = work.kind === 'submit' ? work.messageIds : [];
    const dispatch = new DispatchStore(db, new OutboxRepository(db));
    await dispatch.recordSubmitted(twoParts, 1, `refunded-${twoParts}`);
    await dispatch.recordPartFailed(twoParts, 2, 'smpp:69', 'refused');
    await dispatch.recordPartFailed(onePart, 1, 'smpp:69', 'refused');
    await dispatch.applyReceipt({ carrierMessageId: `refunded-${twoParts}`, stat: 'DELIVRD', err: '000', doneAt: null });
    // Both messages are final: the campaign is complete, its last refunds not booked yet.
    expect(await findCampaignDetail(db, company_id, accepted.campaignId)).toMatchObject({ status: 'completed', refunded: 0.0274 });
    expect((await new CampaignWebhookEvents(db).findCampaign(accepted.campaignId))?.refunded).toBe('0.0548');

    const refunds = new MessageRefundService(db, new LedgerRepository(db));
    await refunds.refund(twoParts);
    await refunds.refund(onePart);
    const refunded = await findCampaignDetail(db, company_id, accepted.campaignId);
    expect(refunded).toMatchObject({ total_cost: 0.0685, refunded: 0.0548 });
    expect((await listCampaignViews(db, company_id, { status: null, reference: null }, { page: 1, limit: 1 })).items[0]).toMatchObject({
      campaign_id: accepted.campaignId,
      refunded: 0.0548,
    });
    expect((await new CampaignWebhookEvents(db).findCampaign(accepted.campaignId))?.refunded).toBe('0.0548');
  });

  it('shows a campaign only to its company, and reads an id that is not a uuid as not found', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Owner', balance: '10' });
    const other = await accounts.createCompany({ name: 'Other', balance: '10' });
    const accepted = await accept(company_id);
    expect(await findCampaignDetail(db, other.company_id, accepted.campaignId)).toBeNull();
    expect(await recipients(other.company_id, accepted.campaignId)).toBeNull();
    expect((await listCampaignViews(db, other.company_id, { status: null, reference: null }, { page: 1, limit: 10 })).total).toBe(0);
    expect(await findCampaignDetail(db, company_id, 'not-a-uuid')).toBeNull();
    expect(await recipients(company_id, "1' OR 1=1")).toBeNull();
  });
});
