import { randomBytes } from 'node:crypto';
import { encodeGsm7, encodeSmsParts, encodeUcs2, splitSms } from '@mp/messaging-domain';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { InboundStore, type ReceivedPart } from './inbound-store';
import { InboundViews, InboundWebhookEvents } from './inbound-views';

describe('InboundStore (PostgreSQL)', () => {
  let db: DataSource;
  let store: InboundStore;
  let views: InboundViews;
  let companyId: string;
  let otherCompanyId: string;
  let nextNumber = 447400911000 + Math.floor(Math.random() * 800) * 100;
  const number = (): string => `+${nextNumber++}`;
  const ownerOf = async (value: string): Promise<string | null> =>
    ((await db.query(`SELECT company_id FROM company_senders WHERE value = $1`, [value])) as { company_id: string }[])[0]?.company_id ?? null;

  const newCompany = async (name: string): Promise<string> =>
    (
      await db.query(`INSERT INTO companies (name, webhook_secret, inbound_webhook_url) VALUES ($1, $2, 'https://hooks.test/in') RETURNING id`, [
        name,
        `whsec_${randomBytes(32).toString('base64')}`,
      ])
    )[0].id;
  const assign = (value: string, company: string) =>
    db.query(`INSERT INTO company_senders (value, kind, company_id) VALUES ($1, 'long_code', $2)`, [value, company]);

  const single = (from: string, to: string, text: string): ReceivedPart => ({
    smsc: 'default',
    from,
    to,
    esmClass: 0,
    dataCoding: 0,
    userData: encodeGsm7(text),
    sar: null,
  });
  const multipart = (from: string, to: string, text: string, reference: number): ReceivedPart[] =>
    encodeSmsParts(splitSms(text), reference).map((part) => ({
      smsc: 'default',
      from,
      to,
      esmClass: 0x40,
      dataCoding: part.dataCoding,
      userData: Buffer.concat([part.udh as Buffer, part.payload]),
      sar: null,
    }));

  beforeAll(async () => {
    db = await openTestDataSource('inbound-store-test');
    store = new InboundStore(db, ownerOf);
    views = new InboundViews(db);
    companyId = await newCompany('Inbound');
    otherCompanyId = await newCompany('Other');
  });
  afterAll(() => db.destroy());

  it('stores a single part for the company the number is assigned to, with its message.received job, once however often it is sent', async () => {
    const [from, to] = [number(), number()];
    await assign(to, companyId);
    const stored = await store.receive(single(from, to, 'STOP'));
    expect(stored).toMatchObject({ outcome: 'stored', companyId, outbox: { jobs: [{ jobName: 'inbound.received' }] } });
    expect(await store.receive(single(from, to, 'STOP'))).toEqual({ outcome: 'duplicate' });
    const id = stored.outcome === 'stored' ? stored.messageId : '';
    expect(await views.find(companyId, id)).toEqual({ id, from, to, text: 'STOP', parts: 1, carrier: 'default', received_at: expect.any(String) });
    expect(await views.find(otherCompanyId, id)).toBeNull();
    const event = await new InboundWebhookEvents(db).received({ inboundMessageId: id, occurredAt: new Date().toISOString() });
    expect(event).toMatchObject({
      companyId,
      url: 'https://hooks.test/in',
      eventType: 'message.received',
      payload: { type: 'message.received', data: { id, text: 'STOP' } },
    });
  });

  it('joins the parts of a UCS-2 message whichever order they come in, and a part sent again makes no second message', async () => {
    const [from, to] = [number(), number()];
    await assign(to, companyId);
    const text = 'Добрый день! '.repeat(15);
    const parts = multipart(from, to, text, 7);
    expect(parts).toHaveLength(3);
    expect(await store.receive(parts[2])).toEqual({ outcome: 'waiting' });
    expect(await store.receive(parts[2])).toEqual({ outcome: 'duplicate' });
    expect(await store.receive(parts[0])).toEqual({ outcome: 'waiting' });
    const stored = await store.receive(parts[1]);
    expect(stored).toMatchObject({ outcome: 'stored', companyId });
    expect(await store.receive(parts[1])).toEqual({ outcome: 'duplicate' });
    const page = await views.list(companyId, { from, to: null, since: null, before: null }, { limit: 10, cursor: null });
    expect(page.items).toEqual([expect.objectContaining({ from, to, text, parts: 3 })]);
  });

  it('joins parts that come together to two stores at once (two dispatchers) into one message', async () => {
    const [from, to] = [number(), number()];
    const parts = multipart(from, to, 'x'.repeat(400), 9);
    const other = new InboundStore(db, ownerOf);
    const outcomes = await Promise.all(parts.map((part, index) => (index % 2 === 0 ? store : other).receive(part)));
    expect(outcomes.filter((outcome) => outcome.outcome === 'stored')).toHaveLength(1);
    const rows = await db.query(`SELECT company_id, parts FROM inbound_messages WHERE sender = $1`, [from]);
    expect(rows).toEqual([{ company_id: null, parts: 3 }]);
  });

  it('keeps a message to an unassigned number with no company and no webhook job', async () => {
    const [from, to] = [number(), number()];
    expect(await store.receive(single(from, to, 'hello?'))).toMatchObject({ outcome: 'stored', companyId: null, outbox: { jobs: [] } });
  });

  it('reads SAR parts and UCS-2 single parts', async () => {
    const [from, to] = [number(), number()];
    const sar = (sequence: number, text: string): ReceivedPart => ({ ...single(from, to, text), sar: { reference: 500, total: 2, sequence } });
    expect(await store.receive(sar(2, ' world'))).toEqual({ outcome: 'waiting' });
    expect(await store.receive(sar(1, 'hello'))).toMatchObject({ outcome: 'stored' });
    expect(await store.receive({ ...single(from, to, ''), dataCoding: 8, userData: encodeUcs2('Привет') })).toMatchObject({ outcome: 'stored' });
    const texts = await db.query(`SELECT text FROM inbound_messages WHERE sender = $1 ORDER BY received_at`, [from]);
    expect(texts).toEqual([{ text: 'hello world' }, { text: 'Привет' }]);
  });

  it('pages the list with a cursor, newest first, and filters by date', async () => {
    const [from, to] = [number(), number()];
    await assign(to, companyId);
    for (const text of ['one', 'two', 'three']) await store.receive(single(from, to, text));
    const first = await views.list(companyId, { from, to, since: null, before: null }, { limit: 2, cursor: null });
    expect(first.items.map((item) => item.text)).toEqual(['three', 'two']);
    const second = await views.list(companyId, { from, to, since: null, before: null }, { limit: 2, cursor: first.next_cursor });
    expect(second).toEqual({ items: [expect.objectContaining({ text: 'one' })], next_cursor: null });
    const future = await views.list(companyId, { from, to, since: new Date(Date.now() + 60_000), before: null }, { limit: 2, cursor: null });
    expect(future.items).toEqual([]);
  });

  it('expires parts that never found their siblings', async () => {
    const [from, to] = [number(), number()];
    const parts = multipart(from, to, 'y'.repeat(200), 11);
    await store.receive(parts[0]);
    await db.query(`UPDATE inbound_fragments SET received_at = now() - interval '2 hours' WHERE sender = $1`, [from]);
    const before = await db.query(`SELECT count(*)::int AS n FROM inbound_fragments WHERE received_at < now() - interval '1 hour'`);
    const expired = await store.expireFragments();
    expect(expired.dropped).toBe(before[0].n);
    expect(expired.incomplete).toBeGreaterThanOrEqual(1);
    expect(await db.query(`SELECT 1 FROM inbound_fragments WHERE sender = $1`, [from])).toEqual([]);
  });
});
