import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES } from '@mp/accounts';
import { LedgerRepository, UnknownCompanyError } from '@mp/billing';
import { DEFAULT_PRICES, parseMoney, type PriceRule } from '@mp/billing-domain';
import type { OutboxJob } from '@mp/queue-runtime';
import { eventually, openTestDataSource, statementsOf } from '@mp/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { MessageRepository } from './message.repository';
import { SendNotAffordableError, SmsAcceptanceService, type SmsSendCommand } from './sms-acceptance';

describe('SmsAcceptanceService (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let service: SmsAcceptanceService;
  /** What each group commit handed over to be enqueued. */
  const committed: { ids: string[]; jobs: OutboxJob[] }[] = [];
  const jobsCarrying = (messageId: string) =>
    committed.flatMap((c) => c.jobs).filter((job) => (job.data as { messageIds: string[] }).messageIds.includes(messageId));
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
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'acceptance-pepper-'.padEnd(40, 'x'));
    service = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db), { onCommitted: async (outbox) => committed.push(outbox) });
  });
  afterAll(() => db.destroy());

  it('charges, stores the message with its parts, and the outbox job, in one go', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Send', balance: '1' });
    const accepted = await service.accept(command(company_id, { body: 'x'.repeat(161), reference: 'order-1' }), prices);
    expect(accepted).toMatchObject({ encoding: 'GSM-7', totalCost: 200n, balance: 9800n, status: 'queued' });
    const [message] = accepted.messages;
    const [row] = await db.query(`SELECT status, parts, cost, reference, recipient FROM messages WHERE id = $1`, [message.messageId]);
    expect(row).toEqual({ status: 'queued', parts: 2, cost: '0.0200', reference: 'order-1', recipient: '+33612345678' });
    const parts = await db.query(`SELECT part_index, user_message_reference, status FROM message_parts WHERE message_id = $1 ORDER BY part_index`, [
      message.messageId,
    ]);
    expect(parts).toHaveLength(2);
    expect(parts[1].user_message_reference).toBe((parts[0].user_message_reference + 1) % 65536);
    const [job] = jobsCarrying(message.messageId);
    const outbox = await db.query(`SELECT job_name, data, enqueued_at FROM outbox WHERE job_id = $1`, [job.jobId]);
    expect(outbox).toEqual([{ job_name: 'sms.submit', data: { messageIds: [message.messageId] }, enqueued_at: null }]);
    const ledger = await db.query(`SELECT kind, amount, balance_after FROM ledger_entries WHERE company_id = $1 ORDER BY id`, [company_id]);
    expect(ledger[1]).toEqual({ kind: 'charge', amount: '-0.0200', balance_after: '0.9800' });
  });

  it('prices each recipient by the longest prefix, and charges the request once', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Multi', balance: '1' });
    const accepted = await service.accept(command(company_id, { recipients: ['+447911123456', '+33612345678', '+14155552671'] }), prices);
    expect(accepted.messages.map((m) => m.cost)).toEqual([350n, 100n, 100n]);
    expect(accepted.balance).toBe(parseMoney('1') - 550n);
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [company_id]);
    expect(count).toBe(1);
  });

  it('stores, queues and charges nothing when the balance does not cover the send', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Poor', balance: '0.015' });
    const attempt = service.accept(command(company_id, { recipients: ['+33612345678', '+14155552671'] }), prices);
    await expect(attempt).rejects.toThrow(SendNotAffordableError);
    await expect(attempt).rejects.toMatchObject({ balance: 150n, cost: 200n });
    const [{ count }] = await db.query(`SELECT count(*)::int AS count FROM messages WHERE company_id = $1`, [company_id]);
    expect(count).toBe(0);
    expect(await new LedgerRepository(db).findBalance(company_id)).toBe(150n);
  });

  it('lets exactly as many concurrent sends through as the balance covers, also across two gateways', async () => {
    const { company_id } = await accounts.createCompany({ name: 'Rush', balance: '0.5' });
    const otherGateway = new SmsAcceptanceService(db, new MessageRepository(db), new LedgerRepository(db), { maxBatch: 7 });
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (i % 2 === 0 ? service : otherGateway).accept(command(company_id), prices).then(
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
    const accepted = await service.accept(command(company_id, { scheduledAt: at }), prices);
    expect(accepted.status).toBe('scheduled');
    const [row] = await db.query(`SELECT status, scheduled_at FROM messages WHERE id = $1`, [accepted.messages[0].messageId]);
    expect(row.status).toBe('scheduled');
    expect(new Date(row.scheduled_at).getTime()).toBe(at.getTime());
    const [job] = jobsCarrying(accepted.messages[0].messageId);
    expect(job.jobId).toBe(`sms-${accepted.messages[0].messageId}`);
    const [row2] = await db.query(`SELECT not_before FROM outbox WHERE job_id = $1`, [job.jobId]);
    expect(new Date(row2.not_before).getTime()).toBe(at.getTime());
  });

  describe('group commit', () => {
    it('is one statement in autocommit when the balance covers the group: the inserts and the charges', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Trips', balance: '1' });
      expect(await statementsOf(() => service.accept(command(company_id), prices))).toEqual([
        expect.stringMatching(/^WITH m AS \(INSERT INTO messages[\s\S]*charged AS \(\s*UPDATE balances[\s\S]*FROM charged\) AS balances$/),
      ]);
    });

    it('when the balance does not cover the group, writes nothing with that statement and charges send by send with the balance locked first', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Short', balance: '0.02' });
      const settled: Promise<string>[] = [];
      const statements = await statementsOf(async () => {
        for (let i = 0; i < 3; i += 1)
          settled.push(
            service.accept(command(company_id), prices).then(
              () => 'sent',
              (error: Error) => error.name,
            ),
          );
        await Promise.all(settled);
      });
      expect(await Promise.all(settled)).toEqual(['sent', 'sent', 'SendNotAffordableError']);
      expect(statements).toEqual([
        expect.stringMatching(/^WITH m AS \(INSERT INTO messages[\s\S]*charged AS/),
        'START TRANSACTION',
        expect.stringMatching(/^SELECT company_id, balance FROM balances .*ORDER BY company_id FOR UPDATE$/),
        expect.stringMatching(/^WITH m AS \(INSERT INTO messages[\s\S]*INSERT INTO outbox[\s\S]*RETURNING id$/),
        expect.stringMatching(/^WITH moved AS \(\s*UPDATE balances/),
        'COMMIT',
      ]);
      expect(await new LedgerRepository(db).findBalance(company_id)).toBe(0n);
      expect((await db.query(`SELECT count(*)::int AS n FROM messages WHERE company_id = $1`, [company_id]))[0].n).toBe(2);
      expect((await db.query(`SELECT count(*)::int AS n FROM ledger_entries WHERE company_id = $1 AND kind = 'charge'`, [company_id]))[0].n).toBe(2);
    });

    it('charges from the balance as it is when the statement gets the row: a charge that moved it meanwhile is seen, and the send refused', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Moved', balance: '0.01' });
      const outboxRows = async () => (await db.query(`SELECT count(*)::int AS n FROM outbox`))[0].n as number;
      const outboxBefore = await outboxRows();
      const other = db.createQueryRunner();
      await other.connect();
      await other.startTransaction();
      try {
        await other.query(`SELECT balance FROM balances WHERE company_id = $1 FOR UPDATE`, [company_id]);
        const sending = service.accept(command(company_id), prices).then(
          () => 'sent',
          (error: Error) => error.name,
        );
        // The send's statement has inserted its rows and now waits for the balance row.
        const waiting = await eventually(
          async () =>
            (
              await db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'WITH m AS (INSERT INTO messages%'`)
            )[0].n,
          (n: number) => n > 0,
          10_000,
        );
        expect(waiting).toBeGreaterThan(0);
        await other.query(`UPDATE balances SET balance = 0 WHERE company_id = $1`, [company_id]);
        await other.commitTransaction();
        expect(await sending).toBe('SendNotAffordableError');
      } finally {
        await other.release();
      }
      expect(await new LedgerRepository(db).findBalance(company_id)).toBe(0n);
      expect((await db.query(`SELECT count(*)::int AS n FROM messages WHERE company_id = $1`, [company_id]))[0].n).toBe(0);
      expect(await outboxRows()).toBe(outboxBefore);
    });

    it('commits sends that arrive together in one statement, each answered the balance right after its own charge', async () => {
      const { company_id } = await accounts.createCompany({ name: 'Group', balance: '1' });
      const before = committed.length;
      const accepted = await Promise.all(Array.from({ length: 20 }, () => service.accept(command(company_id), prices)));
      expect(committed.length - before).toBe(1);
      const balances = accepted.map((a) => a.balance).sort((a, b) => (a > b ? -1 : 1));
      expect(balances).toEqual(Array.from({ length: 20 }, (_, i) => parseMoney('1') - 100n * BigInt(i + 1)));
      const ledger = await db.query(`SELECT amount, balance_after FROM ledger_entries WHERE company_id = $1 AND kind = 'charge' ORDER BY balance_after DESC`, [
        company_id,
      ]);
      expect(ledger.map((e: { balance_after: string }) => parseMoney(e.balance_after))).toEqual(balances);
      const [job] = committed[committed.length - 1].jobs;
      expect((job.data as { messageIds: string[] }).messageIds.sort()).toEqual(accepted.map((a) => a.messages[0].messageId).sort());
    });

    it("numbers a group's ledger entries in charge order: read by id, each balance is the one before less its amount", async () => {
      const { company_id } = await accounts.createCompany({ name: 'Ordered', balance: '5' });
      const sizes = [1, 3, 2, 5, 1, 4, 2, 3, 1, 2, 6, 1, 2, 3, 1, 1, 2, 4, 1, 2];
      const before = committed.length;
      const accepted = await Promise.all(sizes.map((n) => service.accept(command(company_id, { body: 'x'.repeat(153 * n) }), prices)));
      expect(committed.length - before).toBe(1);
      const entries: { amount: string; balance_after: string }[] = await db.query(
        `SELECT amount, balance_after FROM ledger_entries WHERE company_id = $1 AND kind = 'charge' ORDER BY id`,
        [company_id],
      );
      let balance = parseMoney('5');
      for (const entry of entries) {
        balance += parseMoney(entry.amount);
        expect(parseMoney(entry.balance_after)).toBe(balance);
      }
      expect(await new LedgerRepository(db).findBalance(company_id)).toBe(balance);
      expect(entries.map((e) => parseMoney(e.balance_after))).toEqual(accepted.map((a) => a.balance));
    });

    it('keeps companies apart in one group: one refused, the others charged from their own balances', async () => {
      const rich = await accounts.createCompany({ name: 'Rich', balance: '1' });
      const poor = await accounts.createCompany({ name: 'Broke', balance: '0' });
      const outcomes = await Promise.allSettled([
        service.accept(command(rich.company_id), prices),
        service.accept(command(poor.company_id), prices),
        service.accept(command(randomUUID()), prices),
        service.accept(command(rich.company_id, { scheduledAt: new Date(Date.now() + 60_000) }), prices),
      ]);
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(SendNotAffordableError);
      expect((outcomes[2] as PromiseRejectedResult).reason).toBeInstanceOf(UnknownCompanyError);
      expect(await new LedgerRepository(db).findBalance(rich.company_id)).toBe(parseMoney('1') - 200n);
      expect(await new LedgerRepository(db).findBalance(poor.company_id)).toBe(0n);
      const scheduled = (outcomes[3] as PromiseFulfilledResult<{ messages: { messageId: string }[] }>).value.messages[0].messageId;
      const immediate = (outcomes[0] as PromiseFulfilledResult<{ messages: { messageId: string }[] }>).value.messages[0].messageId;
      const rows = await db.query(`SELECT id, status, scheduled_at FROM messages WHERE id = ANY($1::uuid[])`, [[scheduled, immediate]]);
      const byId = new Map(rows.map((r: { id: string }) => [r.id, r]));
      expect(byId.get(immediate)).toMatchObject({ status: 'queued', scheduled_at: null });
      expect(byId.get(scheduled)).toMatchObject({ status: 'scheduled' });
    });
  });
});
