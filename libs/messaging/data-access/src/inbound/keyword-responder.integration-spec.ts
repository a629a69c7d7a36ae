import { accountsRepositories, AccountsService, ACCOUNTS_ENTITIES, AuditLogRepository, MessagingSettings, SenderRegistry } from '@mp/accounts';
import { LedgerRepository } from '@mp/billing';
import { parseMoney, type PriceRule } from '@mp/billing-domain';
import { encodeGsm7 } from '@mp/messaging-domain';
import { OutboxRepository } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { MessageRepository } from '../message.repository';
import { OptOutStore } from '../opt-outs/opt-out-store';
import { ContactWebhookEvents } from './contact-webhook-events';
import { INBOUND_STORE_DEFAULTS, InboundStore } from './inbound-store';
import { KeywordResponder } from './keyword-responder';

const PRICE = parseMoney('0.0350');

describe('KeywordResponder through InboundStore (PostgreSQL)', () => {
  let db: DataSource;
  let store: InboundStore;
  let optOuts: OptOutStore;
  let accounts: AccountsService;
  let nextNumber = 447400922000 + Math.floor(Math.random() * 800) * 100;
  const newNumber = () => `${nextNumber++}`;
  let prices: PriceRule[] = [{ prefix: '+44', route: 'auto', price: PRICE }];

  const newCompany = async (name: string, balance: string) => {
    const { company_id } = await accounts.createCompany({ name: `${name} ${Math.random().toString(36).slice(2, 8)}`, balance });
    const number = `+${newNumber()}`;
    await db.query(`INSERT INTO company_senders (value, kind, company_id) VALUES ($1, 'long_code', $2)`, [number, company_id]);
    return { companyId: company_id, number };
  };
  /** A deliver_sm as a carrier gives it: numbers without their '+'. */
  const receive = (from: string, to: string, text: string) =>
    store.receive({ smsc: 'default', from: from.replace('+', ''), to: to.replace('+', ''), esmClass: 0, dataCoding: 0, userData: encodeGsm7(text), sar: null });
  const stored = async (from: string, to: string, text: string) => {
    const outcome = await receive(from, to, text);
    if (outcome.outcome !== 'stored') throw new Error(`expected stored, got ${outcome.outcome}`);
    return outcome;
  };
  const replies = (inboundId: string): Promise<{ recipient: string; sender: string; body: string; cost: string; status: string }[]> =>
    db.query(`SELECT recipient, sender, body, cost::text AS cost, status FROM messages WHERE reference = $1`, [`keyword-reply:${inboundId}`]);
  const balanceOf = async (companyId: string) =>
    (await db.query(`SELECT balance::text AS balance FROM balances WHERE company_id = $1`, [companyId]))[0].balance;

  beforeAll(async () => {
    db = await openTestDataSource('keyword-responder-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), 'keyword-responder-'.padEnd(40, 'x'));
    const outbox = new OutboxRepository(db);
    const keywords = new KeywordResponder(new MessageRepository(db), new LedgerRepository(db), outbox, {
      extraOptOutKeywords: ['DESINSCRIRE'],
      prices: async () => prices,
    });
    const senders = new SenderRegistry(db, new AuditLogRepository(db));
    store = new InboundStore(db, (value) => senders.ownerOf(value), INBOUND_STORE_DEFAULTS, keywords);
    optOuts = new OptOutStore(db);
  });
  afterAll(() => db.destroy());

  it('STOP suppresses the contact for the number, replies once with the CTIA text, charged, and raises contact.opted_out; a resend changes nothing', async () => {
    const acme = await newCompany('Acme', '1');
    const contact = `+${newNumber()}`;
    const stop = await stored(contact, acme.number, 'Stop');
    expect(stop.keyword).toMatchObject({ intent: 'opt_out', changed: true, reply: { messageId: expect.any(String) } });
    expect(await optOuts.suppressedAmong(acme.companyId, acme.number, [contact])).toEqual(new Set([contact]));
    const [reply] = await replies(stop.messageId);
    expect(reply).toEqual({
      recipient: contact,
      sender: acme.number,
      body: expect.stringMatching(/^Acme \w+: You are unsubscribed and will receive no further messages\. Reply START to resubscribe\.$/),
      cost: '0.0350',
      status: 'queued',
    });
    expect(await balanceOf(acme.companyId)).toBe('0.9650');
    expect(stop.outbox.jobs.map((job) => job.jobName).sort()).toEqual(['contact.event', 'inbound.received', 'sms.submit']);

    const event = await new ContactWebhookEvents(db).event({
      inboundMessageId: stop.messageId,
      type: 'contact.opted_out',
      occurredAt: new Date().toISOString(),
    });
    expect(event?.payload.data).toEqual({ phone: contact, number: acme.number, keyword: 'Stop', inbound_message_id: stop.messageId });

    expect((await receive(contact, acme.number, 'Stop')).outcome).toBe('duplicate');
    expect(await replies(stop.messageId)).toHaveLength(1);
    expect(await balanceOf(acme.companyId)).toBe('0.9650');
  });

  it('STOP again replies but raises no event; STOPALL covers every number; START lifts both with contact.opted_in; HELP only replies', async () => {
    const acme = await newCompany('Acme', '1');
    const contact = `+${newNumber()}`;
    await stored(contact, acme.number, 'STOP');
    const again = await stored(contact, acme.number, 'quit');
    expect(again.keyword).toMatchObject({ intent: 'opt_out', changed: false, reply: { messageId: expect.any(String) } });
    expect(again.outbox.jobs.map((job) => job.jobName).sort()).toEqual(['inbound.received', 'sms.submit']);

    const all = await stored(contact, acme.number, 'STOPALL');
    expect(all.keyword).toMatchObject({ intent: 'opt_out_all', changed: true });
    expect(await optOuts.suppressedAmong(acme.companyId, 'AnySender', [contact])).toEqual(new Set([contact]));
    const allEvent = await new ContactWebhookEvents(db).event({
      inboundMessageId: all.messageId,
      type: 'contact.opted_out',
      occurredAt: new Date().toISOString(),
    });
    expect(allEvent?.payload.data.number).toBeNull();

    const start = await stored(contact, acme.number, 'start!');
    expect(start.keyword).toMatchObject({ intent: 'opt_in', changed: true });
    expect(start.outbox.jobs.find((job) => job.jobName === 'contact.event')?.data).toMatchObject({ type: 'contact.opted_in' });
    expect((await optOuts.list(acme.companyId, { phone: contact, limit: 10 })).items).toEqual([]);
    expect((await replies(start.messageId))[0].body).toContain('You are resubscribed');

    const help = await stored(contact, acme.number, 'HELP');
    expect(help.keyword).toMatchObject({ intent: 'help', changed: false });
    expect(help.outbox.jobs.map((job) => job.jobName).sort()).toEqual(['inbound.received', 'sms.submit']);
    expect((await replies(help.messageId))[0].body).toMatch(/: Msg&data rates may apply\. Reply STOP to unsubscribe, START to resubscribe\.$/);
  });

  it("answers with the company's own texts and honours the operator's own keywords; an ordinary text is no keyword", async () => {
    const acme = await newCompany('Acme', '1');
    await new MessagingSettings(db, new AuditLogRepository(db)).update(acme.companyId, { optOutReply: 'Acme: bye.', helpReply: 'Acme: call 0800 000 000.' });
    const contact = `+${newNumber()}`;
    const own = await stored(contact, acme.number, 'desinscrire');
    expect(own.keyword).toMatchObject({ intent: 'opt_out', changed: true });
    expect((await replies(own.messageId))[0].body).toBe('Acme: bye.');
    const help = await stored(contact, acme.number, 'info');
    expect((await replies(help.messageId))[0].body).toBe('Acme: call 0800 000 000.');
    const ordinary = await stored(contact, acme.number, 'please stop sending offers');
    expect(ordinary.keyword).toBeNull();
    expect(await replies(ordinary.messageId)).toEqual([]);
  });

  it('still opts out, without a reply, when the balance does not cover one or no price is set', async () => {
    const broke = await newCompany('Broke', '0.01');
    const contact = `+${newNumber()}`;
    const stop = await stored(contact, broke.number, 'STOP');
    expect(stop.keyword).toMatchObject({ intent: 'opt_out', changed: true, reply: { skipped: 'insufficient balance' } });
    expect(await optOuts.suppressedAmong(broke.companyId, broke.number, [contact])).toEqual(new Set([contact]));
    expect(await replies(stop.messageId)).toEqual([]);
    expect(await balanceOf(broke.companyId)).toBe('0.0100');

    const saved = prices;
    prices = [];
    try {
      const rich = await newCompany('Rich', '1');
      const unpriced = await stored(contact, rich.number, 'STOP');
      expect(unpriced.keyword).toMatchObject({ changed: true, reply: { skipped: 'no price' } });
    } finally {
      prices = saved;
    }
  });
});
