import { randomBytes } from 'node:crypto';
import { encodeGsm7 } from '@mp/messaging-domain';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { InboundStore, type ReceivedPart } from './inbound-store';
import { InboundViews } from './inbound-views';

/** The listing's number filters and the operator's list of messages no company owns. */
describe('InboundViews (PostgreSQL)', () => {
  let db: DataSource;
  let store: InboundStore;
  let views: InboundViews;
  let companyId: string;
  let otherCompanyId: string;
  let nextNumber = 447400922000 + Math.floor(Math.random() * 800) * 100;
  const number = (): string => `+${nextNumber++}`;
  const owners = new Map<string, string>();
  // The test decides who owns what; SenderRegistry's own lookup has its specs in accounts.
  const ownerOf = async (value: string): Promise<string | null> => owners.get(value) ?? null;
  const page = { limit: 100, cursor: null };
  const noFilter = { from: null, to: null, since: null, before: null };

  const newCompany = async (name: string): Promise<string> =>
    (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ($1, $2) RETURNING id`, [name, `whsec_${randomBytes(32).toString('base64')}`]))[0].id;
  const receive = async (from: string, to: string, text: string) => {
    const part: ReceivedPart = { smsc: 'default', from, to, esmClass: 0, dataCoding: 0, userData: encodeGsm7(text), sar: null };
    const outcome = await store.receive(part);
    if (outcome.outcome !== 'stored') throw new Error(`not stored: ${outcome.outcome}`);
    return outcome.messageId;
  };

  beforeAll(async () => {
    db = await openTestDataSource('inbound-views-test');
    store = new InboundStore(db, ownerOf);
    views = new InboundViews(db);
    companyId = await newCompany('Inbound views');
    otherCompanyId = await newCompany('Inbound views other');
  });
  afterAll(() => db.destroy());

  it('finds a message by its number however the carrier wrote it, and by a short code', async () => {
    const [from, to] = [number(), number()];
    const shortCode = String(10_000_000 + Math.floor(Math.random() * 89_999_999));
    owners.set(to.slice(1), companyId);
    owners.set(`+${shortCode}`, companyId);
    const bare = await receive(from.slice(1), to.slice(1), 'no plus');
    const viaShortCode = await receive(from, `+${shortCode}`, 'short code');
    const byTo = await views.list(companyId, { ...noFilter, to }, page);
    expect(byTo.items.map((item) => [item.id, item.to, item.from])).toEqual([[bare, to.slice(1), from.slice(1)]]);
    expect((await views.list(companyId, { ...noFilter, from }, page)).items.map((item) => item.id)).toEqual([viaShortCode, bare]);
    expect((await views.list(companyId, { ...noFilter, to: shortCode }, page)).items.map((item) => item.id)).toEqual([viaShortCode]);
    expect((await views.list(otherCompanyId, { ...noFilter, to }, page)).items).toEqual([]);
  });

  it('lists messages of no company for the operator, newest first, by number and a page at a time; no company lists them', async () => {
    const [from, unassigned, owned] = [number(), number(), number()];
    owners.set(owned, companyId);
    const first = await receive(from, unassigned, 'first');
    const second = await receive(from, `00${unassigned.slice(1)}`, 'second');
    const ownedId = await receive(from, owned, 'owned');
    const listed = await views.listUnassigned({ ...noFilter, to: unassigned }, { limit: 1, cursor: null });
    expect(listed.items).toEqual([expect.objectContaining({ id: second, text: 'second', to: `00${unassigned.slice(1)}` })]);
    const next = await views.listUnassigned({ ...noFilter, to: unassigned }, { limit: 1, cursor: listed.next_cursor });
    expect(next.items.map((item) => item.id)).toEqual([first]);
    expect(next.next_cursor).toBeNull();
    const byHandset = (await views.listUnassigned({ ...noFilter, from }, page)).items.map((item) => item.id);
    expect(byHandset).toEqual([second, first]);
    expect(byHandset).not.toContain(ownedId);
    for (const company of [companyId, otherCompanyId])
      expect((await views.list(company, { ...noFilter, from }, page)).items.map((item) => item.id)).not.toContain(first);
    expect(await views.find(companyId, first)).toBeNull();
  });
});
