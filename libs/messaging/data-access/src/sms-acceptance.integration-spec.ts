import { AccountsService } from '@mp/accounts';
import { DEFAULT_PRICES, parseMoney, type PriceRule } from '@mp/billing-domain';
import { LedgerRepository } from '@mp/persistence';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { SendNotAffordableError, SmsAcceptanceService, type DispatchJobFactory, type SmsSendCommand } from './sms-acceptance';

const dispatchJob: DispatchJobFactory = (messageId) => ({
  queue: 'sms.dispatch',
  jobName: 'sms.submit',
  jobId: `sms-${messageId}`,
  data: { messageId },
  priority: null,
});

describe('SmsAcceptanceService (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let service: SmsAcceptanceService;
  const prices: PriceRule[] = [...DEFAULT_PRICES, { prefix: '+44', route: 'auto', price: parseMoney('0.035') }];

  const command = (companyId: string, overrides: Partial<SmsSendCommand> = {}): SmsSendCommand => ({
    companyId,
    sender: 'Acme',
    route: 'auto',
    body: 'Hello',
    recipients: ['+33612345678'],
    reference: null,
    webhookUrl: null,
    scheduledAt: null,
    ...overrides,
  });

  beforeAll(async () => {
    db = await openTestDataSource();
    accounts = new AccountsService(db, 'acceptance-pepper-'.padEnd(40, 'x'));
    service = new SmsAcceptanceService(db);
  });
  afterAll(() => db.destroy());

  it('charges, stores the message with its parts, and the outbox job, in one go', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Send', balance: '1' });
    const accepted = await service.accept(command(company_id, { body: 'x'.repeat(161), reference: 'order-1' }), prices, dispatchJob);
    expect(accepted).toMatchObject({ encoding: 'GSM-7', totalCost: 200n, balance: 9800n, status: 'queued' });
    const [message] = accepted.messages;
    const [row] = await db.query(`SELECT status, parts, cost, reference, recipient FROM messages WHERE id = $1`, [message.messageId]);
    expect(row).toEqual({ status: 'queued', parts: 2, cost: '0.0200', reference: 'order-1', recipient: '+33612345678' });
    const parts = await db.query(`SELECT part_index, user_message_reference, status FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [
      message.messageId,
    ]);
    expect(parts).toHaveLength(2);
    expect(parts[1].user_message_reference).toBe((parts[0].user_message_reference + 1) % 65536);
    const outbox = await db.query(`SELECT job_id, data, enqueued_at FROM outbox WHERE id = ANY($1::bigint[])`, [accepted.outbox.ids]);
    expect(outbox).toEqual([{ job_id: `sms-${message.messageId}`, data: { messageId: message.messageId }, enqueued_at: null }]);
    const ledger = await db.query(`SELECT kind, amount, balance_after FROM ledger_entries WHERE company_id = $1 ORDER BY id`, [company_id]);
    expect(ledger[1]).toEqual({ kind: 'charge', amount: '-0.0200', balance_after: '0.9800' });
  });

  it('prices each recipient by the longest prefix, and charges the request once', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Multi', balance: '1' });
    const accepted = await service.accept(command(company_id, { recipients: ['+447911123456', '+33612345678', '+14155552671'] }), prices, dispatchJob);
    expect(accepted.messages.map((m) => m.cost)).toEqual([350n, 100n, 100n]);
    expect(accepted.balance).toBe(parseMoney('1') - 550n);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [company_id]);
    expect(count).toBe(1);
  });

  it('stores, queues and charges nothing when the balance does not cover the send', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Poor', balance: '0.015' });
    const attempt = service.accept(command(company_id, { recipients: ['+33612345678', '+14155552671'] }), prices, dispatchJob);
    await expect(attempt).rejects.toThrow(SendNotAffordableError);
    await expect(attempt).rejects.toMatchObject({ balance: 150n, cost: 200n });
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM messages WHERE company_id = $1`, [company_id]);
    expect(count).toBe(0);
    expect(await new LedgerRepository(db).findBalance(company_id)).toBe(150n);
  });

  it('lets exactly as many concurrent sends through as the balance covers', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Rush', balance: '0.5' });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, () =>
        service.accept(command(company_id), prices, dispatchJob).then(
          () => 'sent',
          (error: Error) => error.name,
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'sent')).toHaveLength(50);
    expect(outcomes.filter((o) => o === 'SendNotAffordableError')).toHaveLength(150);
    expect(await new LedgerRepository(db).findBalance(company_id)).toBe(0n);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM messages WHERE company_id = $1`, [company_id]);
    expect(count).toBe(50);
  });

  it('stores a scheduled send as scheduled, with its job held until the time', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Later', balance: '1' });
    const at = new Date(Date.now() + 3_600_000);
    const accepted = await service.accept(command(company_id, { scheduledAt: at }), prices, dispatchJob);
    expect(accepted.status).toBe('scheduled');
    const [row] = await db.query(`SELECT status, scheduled_at FROM messages WHERE id = $1`, [accepted.messages[0].messageId]);
    expect(row.status).toBe('scheduled');
    expect(new Date(row.scheduled_at).getTime()).toBe(at.getTime());
    const [job] = await db.query(`SELECT not_before FROM outbox WHERE id = $1`, [accepted.outbox.ids[0]]);
    expect(new Date(job.not_before).getTime()).toBe(at.getTime());
  });
});
