import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { parseMoney, type PriceRule } from '@mp/billing-domain';
import { parsePhoneNumber } from '@mp/messaging-domain';
import { InvalidCursorError } from '@mp/persistence';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { CampaignAcceptanceService } from '../campaigns/campaign-acceptance';
import { CampaignBatchStore } from '../campaigns/campaign-batches';
import { DispatchStore } from '../dispatch-store';
import { MessageCancellationService } from '../message-cancellation';
import { MessageRefundService } from '../message-refund';
import { MessageRepository } from '../message.repository';
import { SmsAcceptanceService } from '../sms-acceptance';
import { findMessageDetail } from './message-detail';
import { apiMessageItem } from './message-list';
import { listMessageLog, MessageLogFilterError, queryMessageLog, type MessageLogItem } from './message-log';
import { spendBy } from './message-spend';
import { messageSearch, NO_MESSAGE_FILTER, type MessageLogFilter } from './message-log-filter';

describe('message log and message detail (PostgreSQL)', () => {
  let db: DataSource;
  let acceptance: SmsAcceptanceService;
  let dispatch: DispatchStore;
  let companyId: string;
  let otherCompanyId: string;
  const prices: PriceRule[] = [{ prefix: '+', route: 'auto', price: parseMoney('0.0137') }];
  const ids: Record<'group' | 'two' | 'scheduled' | 'otp' | 'old' | 'other' | 'campaign', string[]> = {
    group: [],
    two: [],
    scheduled: [],
    otp: [],
    old: [],
    other: [],
    campaign: [],
  };
  let campaignId = '';

  const send = async (company: string, recipients: string[], options: { body?: string; reference?: string | null; scheduledAt?: Date | null } = {}) =>
    (
      await acceptance.accept(
        {
          companyId: company,
          sender: 'Acme',
          route: 'auto',
          body: options.body ?? 'Hello',
          recipients,
          reference: options.reference ?? null,
          webhookUrl: null,
          scheduledAt: options.scheduledAt ?? null,
        },
        prices,
      )
    ).messages.map((message) => message.messageId);
  const filter = (overrides: Partial<MessageLogFilter>): MessageLogFilter => ({ ...NO_MESSAGE_FILTER, ...overrides });
  /** Every page of the log, following next_cursor. */
  const all = async (f: MessageLogFilter, limit = 2, company = companyId): Promise<MessageLogItem[]> => {
    const items: MessageLogItem[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages++) {
      const page = await listMessageLog(db, company, f, { limit, cursor });
      items.push(...page.items);
      if (page.next_cursor === null) return items;
      cursor = page.next_cursor;
    }
    throw new Error('the pages never end');
  };
  const idsOf = (items: MessageLogItem[]) => items.map((item) => item.message_id);

  beforeAll(async () => {
    db = await openTestDataSource('message-log-test', ACCOUNTS_ENTITIES);
    const accounts = new AccountsService(db, accountsRepositories(db), 'message-log-pepper-'.padEnd(40, 'x'));
    const ledger = new LedgerRepository(db);
    acceptance = new SmsAcceptanceService(db, new MessageRepository(db), ledger);
    dispatch = new DispatchStore(db, new OutboxRepository(db));
    companyId = (await accounts.createCompany({ name: 'Log', balance: '10' })).company_id;
    otherCompanyId = (await accounts.createCompany({ name: 'Other log', balance: '10' })).company_id;

    ids.old = await send(companyId, ['+447911000009'], { reference: 'order-0' });
    // A day earlier than everything else, for the date range.
    await db.query(`UPDATE messages SET created_at = created_at - interval '1 day' WHERE id = $1`, [ids.old[0]]);
    // Five messages of one request share their creation time: pages must split them by id.
    ids.group = await send(companyId, ['+447911000001', '+447911000002', '+447911000003', '+447911000004', '+447911000005'], { reference: 'order-1' });
    ids.two = await send(companyId, ['+33612345678'], { body: 'x'.repeat(200), reference: 'order-2' });
    await dispatch.recordSubmittedMany([
      { messageId: ids.two[0], partIndex: 1, carrierMessageId: 'log-two-1' },
      { messageId: ids.two[0], partIndex: 2, carrierMessageId: 'log-two-2' },
    ]);
    await dispatch.applyReceipts([
      { carrierMessageId: 'log-two-1', stat: 'DELIVRD', err: '000', doneAt: null },
      { carrierMessageId: 'log-two-2', stat: 'UNDELIV', err: '011', doneAt: null },
    ]);
    ids.scheduled = await send(companyId, ['+447922000001'], { scheduledAt: new Date(Date.now() + 3600_000) });
    await new MessageCancellationService(db, ledger).cancel(companyId, ids.scheduled[0]);
    ids.otp = await send(companyId, ['+447911000007']);
    // What an OTP's message looks like to the log: a row with its OTP's id.
    await db.query(`UPDATE messages SET otp_id = gen_random_uuid() WHERE id = $1`, [ids.otp[0]]);
    ids.other = await send(otherCompanyId, ['+447911000001'], { reference: 'order-1' });

    const campaigns = new CampaignAcceptanceService(db, ledger, new OutboxRepository(db), (input) => parsePhoneNumber(input, { allowMissingPlus: true }));
    const accepted = await campaigns.accept(
      {
        companyId,
        sender: 'Shop',
        priority: 'normal',
        reference: 'spring',
        webhookUrl: null,
        batchSize: 10,
        delayBetweenBatchesS: 0,
        scheduledAt: null,
        input: { mode: 1, recipients: ['+447933000001', '+447933000002'], message: 'Spring sale' },
      },
      prices,
    );
    campaignId = accepted.campaignId;
    await new CampaignBatchStore(db, new MessageRepository(db)).start(accepted.batches[0].batchId, new Date());
    ids.campaign = (await db.query(`SELECT id FROM messages WHERE campaign_id = $1 ORDER BY batch_index`, [campaignId])).map((row: { id: string }) => row.id);
    // One of the first part's refunds, as the billing app books it for a part that never left.
    await dispatch.recordPartFailed(ids.campaign[1], 1, 'SUBMIT_FAILED', 'the carrier refused it');
    await new MessageRefundService(db, ledger).refund(ids.campaign[1]);
  });
  afterAll(() => db.destroy());

  it('lists every message of the company but its OTPs, newest first, once each across pages, whatever the page size', async () => {
    const expected: string[] = (
      await db.query(`SELECT id FROM messages WHERE company_id = $1 AND otp_id IS NULL ORDER BY created_at DESC, id DESC`, [companyId])
    ).map((row: { id: string }) => row.id);
    expect(expected).toHaveLength(10);
    for (const limit of [1, 2, 3, 100]) expect(idsOf(await all(NO_MESSAGE_FILTER, limit))).toEqual(expected);
    expect(expected).not.toContain(ids.otp[0]);
    expect(expected.slice(-6)).toEqual([...ids.group].sort().reverse().concat(ids.old));
  });

  it('answers each row with its destination, status word, parts, exact cost and times', async () => {
    const [two] = await all(filter({ messageId: ids.two[0] }));
    expect(two).toMatchObject({ to: '+33612345678', from: 'Acme', status: 'undelivered', parts: 2, cost: 0.0274, refunded: 0, reference: 'order-2' });
    expect(two.sent_at).not.toBeNull();
    expect(two.delivered_at).toBeNull();
    expect(two.completed_at).not.toBeNull();
    const [scheduled] = await all(filter({ messageId: ids.scheduled[0] }));
    expect(scheduled).toMatchObject({ status: 'cancelled', cost: 0.0137, refunded: 0.0137, sent_at: null });
    expect(scheduled.scheduled_time).not.toBeNull();
    await db.query(`UPDATE messages SET status = 'delivered', completed_at = now() WHERE id = $1`, [ids.group[0]]);
    const [delivered] = await all(filter({ messageId: ids.group[0] }));
    expect(delivered.delivered_at).toBe(delivered.completed_at);
    expect(delivered.delivered_at).not.toBeNull();
  });

  it('finds a number exactly or by its first digits, only in the company', async () => {
    expect(idsOf(await all(filter({ number: { value: '+447911000003', match: 'exact' } })))).toEqual([ids.group[2]]);
    expect(idsOf(await all(filter({ number: { value: '+44791100000', match: 'exact' } })))).toEqual([]);
    const prefix = idsOf(await all(filter({ number: { value: '+4479110', match: 'prefix' } })));
    expect([...prefix].sort()).toEqual([...ids.group, ...ids.old].sort());
    expect(idsOf(await all(filter({ number: { value: '+447911000001', match: 'exact' } }), 2, otherCompanyId))).toEqual(ids.other);
    expect(idsOf(await all(filter({ number: { value: '+3', match: 'prefix' } })))).toEqual(ids.two);
  });

  it('filters by message id, reference, statuses, dates and campaign, together', async () => {
    expect(idsOf(await all(filter({ messageId: ids.other[0] })))).toEqual([]);
    expect(idsOf(await all(filter({ messageId: 'not-a-uuid' })))).toEqual([]);
    expect([...idsOf(await all(filter({ reference: 'order-1' })))].sort()).toEqual([...ids.group].sort());
    expect(idsOf(await all(filter({ statuses: ['undelivered', 'cancelled'] })))).toEqual([...ids.scheduled, ...ids.two]);
    const [{ created_at }] = await db.query(`SELECT created_at FROM messages WHERE id = $1`, [ids.group[0]]);
    expect(idsOf(await all(filter({ before: new Date(created_at) })))).toEqual(ids.old);
    const since = await all(filter({ from: new Date(created_at), reference: 'order-1', number: { value: '+4479110000', match: 'prefix' } }));
    expect(since).toHaveLength(5);
    expect(idsOf(await all(filter({ campaignId })))).toEqual([...ids.campaign].sort().reverse());
    expect(idsOf(await all(filter({ campaignId, statuses: ['failed'] })))).toEqual([ids.campaign[1]]);
    expect(idsOf(await all(filter({ campaignId }), 2, otherCompanyId))).toEqual([]);
    // Completed: its messages are looked for up to its completion, which comes after them all.
    await db.query(`UPDATE campaigns SET status = 'completed', completed_at = now() WHERE id = $1`, [campaignId]);
    expect(idsOf(await all(filter({ campaignId })))).toEqual([...ids.campaign].sort().reverse());
    await db.query(`UPDATE campaigns SET status = 'processing', completed_at = NULL WHERE id = $1`, [campaignId]);
  });

  it('reads the Search field as a message id, a number or a reference', async () => {
    expect(idsOf(await all(filter(messageSearch(` ${ids.two[0].toUpperCase()} `))))).toEqual(ids.two);
    expect(idsOf(await all(filter(messageSearch('44 7911 000 003'))))).toEqual([ids.group[2]]);
    expect(idsOf(await all(filter(messageSearch('order-2'))))).toEqual(ids.two);
    expect(idsOf(await all(filter(messageSearch(''))))).toHaveLength(10);
  });

  it('refuses a cursor that is not one of its pages, and a filter that cannot be run', async () => {
    const page = await listMessageLog(db, companyId, NO_MESSAGE_FILTER, { limit: 1, cursor: null });
    expect(page.next_cursor).not.toBeNull();
    for (const cursor of ['x', `${page.next_cursor}x`, Buffer.from('["1","2"]').toString('base64url')]) {
      await expect(listMessageLog(db, companyId, NO_MESSAGE_FILTER, { limit: 1, cursor })).rejects.toThrow(InvalidCursorError);
    }
    await expect(listMessageLog(db, companyId, NO_MESSAGE_FILTER, { limit: 101, cursor: null })).rejects.toThrow(MessageLogFilterError);
    await expect(listMessageLog(db, companyId, filter({ number: { value: '447', match: 'prefix' } }), { limit: 1, cursor: null })).rejects.toThrow(
      'number must be + then 1 to 15 digits',
    );
  });

  it("shows one message with its parts and its history, from the rows' times", async () => {
    const detail = await findMessageDetail(db, companyId, ids.two[0]);
    expect(detail).toMatchObject({ message_id: ids.two[0], message: 'x'.repeat(200), status: 'undelivered', error_code: '011', parts: 2 });
    expect(detail?.part_details.map((p) => [p.index, p.status, p.carrier_message_id, p.receipt_stat, p.error_code])).toEqual([
      [1, 'delivered', 'log-two-1', 'DELIVRD', null],
      [2, 'undelivered', 'log-two-2', 'UNDELIV', '011'],
    ]);
    expect(detail?.history.map((e) => [e.event, e.part])).toEqual([
      ['accepted', null],
      ['submitted', 1],
      ['submitted', 2],
      ['sent', null],
      ['delivered', 1],
      ['undelivered', 2],
      ['undelivered', null],
    ]);
    expect(detail?.history[6].details).toEqual({ error_code: '011', error_reason: "the carrier's receipt said UNDELIV (err:011)" });
    expect(detail?.history[1].details).toEqual({ carrier_message_id: 'log-two-1' });
    const times = detail?.history.map((e) => Date.parse(e.at)) ?? [];
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('shows a scheduled message cancelled and refunded, and a campaign message accepted with its campaign', async () => {
    const scheduled = await findMessageDetail(db, companyId, ids.scheduled[0]);
    expect(scheduled?.history.map((e) => e.event)).toEqual(['accepted', 'scheduled', 'cancelled', 'refunded']);
    expect(scheduled?.history[1].details['scheduled_for']).toBe(scheduled?.scheduled_time);
    expect(scheduled?.history[3].details).toEqual({ amount: 0.0137 });
    expect(scheduled?.part_details.map((p) => p.status)).toEqual(['cancelled']);

    const failed = await findMessageDetail(db, companyId, ids.campaign[1]);
    const [{ created_at: campaignCreatedAt }] = await db.query(`SELECT created_at FROM campaigns WHERE id = $1`, [campaignId]);
    expect(failed?.campaign_id).toBe(campaignId);
    expect(failed?.history.map((e) => [e.event, e.part])).toEqual([
      ['accepted', null],
      ['queued', null],
      ['failed', 1],
      ['failed', null],
      ['refunded', null],
    ]);
    expect(failed?.history[0]).toEqual({ at: new Date(campaignCreatedAt).toISOString(), event: 'accepted', part: null, details: { campaign_id: campaignId } });
    expect(failed?.history[2].details).toEqual({ error_code: 'SUBMIT_FAILED' });
  });

  it("shows nothing of another company's message, of an OTP's, or of an id that is none", async () => {
    expect(await findMessageDetail(db, companyId, ids.other[0])).toBeNull();
    expect(await findMessageDetail(db, otherCompanyId, ids.other[0])).not.toBeNull();
    expect(await findMessageDetail(db, companyId, ids.otp[0])).toBeNull();
    expect(await findMessageDetail(db, companyId, 'nope')).toBeNull();
  });

  it('lists the OTPs too for the API, without their text, and narrows to a sender', async () => {
    const page = await queryMessageLog(db, companyId, { ...NO_MESSAGE_FILTER, includeOtps: true }, { limit: 100, cursor: null }, apiMessageItem);
    expect(page.items).toHaveLength(11);
    const otp = page.items.find((item) => item.message_id === ids.otp[0]);
    expect(otp).toMatchObject({ message: null, otp_id: expect.any(String) });
    expect(page.items.find((item) => item.message_id === ids.old[0])).toMatchObject({ message: 'Hello', otp_id: null, route: 'auto' });
    const shop = await queryMessageLog(
      db,
      companyId,
      { ...NO_MESSAGE_FILTER, sender: 'Shop', includeOtps: true },
      { limit: 100, cursor: null },
      apiMessageItem,
    );
    expect(shop.items.map((item) => item.message_id).sort()).toEqual([...ids.campaign].sort());
  });

  it('sums the spend by day, country and route exactly, equal to the ledger, scoped to the company', async () => {
    const range = { from: new Date(Date.now() - 3 * 86_400_000), before: new Date(Date.now() + 86_400_000) };
    const [ledger]: { charged: string; refunded: string }[] = await db.query(
      `SELECT (-sum(amount) FILTER (WHERE kind = 'charge'))::text AS charged, coalesce(sum(amount) FILTER (WHERE kind = 'refund'), 0)::text AS refunded
       FROM ledger_entries WHERE company_id = $1`,
      [companyId],
    );
    const rows: { recipient: string; cost: string }[] = await db.query(`SELECT recipient, cost::text AS cost FROM messages WHERE company_id = $1`, [companyId]);
    const byCountry = new Map<string | null, number>();
    for (const row of rows) {
      const parsed = parsePhoneNumber(row.recipient);
      const country = parsed.ok ? parsed.country : null;
      byCountry.set(country, (byCountry.get(country) ?? 0) + 1);
    }
    for (const group of ['day', 'country', 'route'] as const) {
      const summary = await spendBy(db, companyId, group, range);
      expect(summary.total).toEqual({
        messages: 11,
        parts: expect.any(Number),
        charged: parseMoney(ledger.charged),
        refunded: parseMoney(ledger.refunded),
        spent: parseMoney(ledger.charged) - parseMoney(ledger.refunded),
      });
      expect(summary.lines.reduce((sum, line) => sum + line.spent, 0n)).toBe(summary.total.spent);
    }
    const countries = await spendBy(db, companyId, 'country', range);
    expect(new Map(countries.lines.map((line) => [line.key, line.messages]))).toEqual(byCountry);
    expect((await spendBy(db, companyId, 'day', range)).lines.map((line) => line.key)).toHaveLength(2);
    expect((await spendBy(db, otherCompanyId, 'route', range)).total.messages).toBe(1);
  });
});
