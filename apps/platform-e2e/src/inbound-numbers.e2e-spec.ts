import { admin, eventually, freePort, runAdmin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type Company } from './support/api-client';

/** A number no other spec uses: +3365 and seven digits of this run. */
const uniqueNumber = (offset: number) => `+3365${String((Date.now() + offset) % 10_000_000).padStart(7, '0')}`;
/** A short code of eight digits, 4 then seven of this run and chance (short codes have few digits to share). */
const uniqueShortCode = () => `4${String((Date.now() + Math.floor(Math.random() * 1_000_000)) % 10_000_000).padStart(7, '0')}`;

interface InboundMessage {
  id: string;
  from: string;
  to: string;
  text: string;
  parts: number;
}
type InboundPage = { data: { items: InboundMessage[]; next_cursor: string | null } };

/**
 * Who owns a message a handset sends, over real SMPP (docs/decisions/0058-short-codes-and-unassigned-inbound.md):
 * the company a short code is assigned to, however the SMSC writes it; the company of a long
 * number the SMSC gives without '+' (TON unknown); and the operator's, through
 * `admin inbound:list --unassigned`, when the number is assigned to nobody.
 */
describe('inbound messages to short codes, bare numbers and unassigned numbers', () => {
  let stack: RunningStack;
  let owner: Company;
  let other: Company;
  let simulatorUrl: string;
  const shortCode = uniqueShortCode();
  const longNumber = uniqueNumber(0);
  const api = new ApiClient(() => stack.gatewayUrl);

  const handsetSends = async (body: object): Promise<void> => {
    const response = await fetch(`${simulatorUrl}/mo`, { method: 'POST', body: JSON.stringify(body) });
    expect(response.status).toBe(200);
  };
  const inboundOf = async (company: Company, query: string) => {
    const response = await api.as(company).get<InboundPage>(`/sms/inbound?${query}`);
    expect(response.status).toBe(200);
    return response.body.data.items;
  };
  const eventuallyListed = (company: Company, query: string, count: number) =>
    eventually(
      () => inboundOf(company, query),
      (items) => items.length >= count,
    );

  beforeAll(async () => {
    await admin(['db:migrate']);
    [owner, other] = [await createCompany('Inbound numbers owner', '1'), await createCompany('Inbound numbers other', '1')];
    await admin(['number:assign', '--company', owner.company_id, '--number', shortCode, '--kind', 'short_code']);
    await admin(['number:assign', '--company', owner.company_id, '--number', longNumber]);
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('gives a message to a short code to the company it is assigned to, with + (TON international) or without (TON unknown)', async () => {
    const from = uniqueNumber(1);
    await handsetSends({ from, to: shortCode, text: 'to the short code, international' }); // 8 digits: the simulator says TON 1, '+'
    await handsetSends({ from, to: shortCode, text: 'to the short code, unknown', to_ton: 0 });
    const listed = await eventuallyListed(owner, `from=${encodeURIComponent(from)}`, 2);
    expect(listed).toHaveLength(2);
    expect(listed.map((item) => [item.to, item.text])).toEqual(
      expect.arrayContaining([
        [shortCode, 'to the short code, unknown'],
        [`+${shortCode}`, 'to the short code, international'],
      ]),
    );
    expect((await inboundOf(owner, `to=${shortCode}`)).map((item) => item.id).sort()).toEqual(listed.map((item) => item.id).sort());
    expect(await inboundOf(other, `from=${encodeURIComponent(from)}`)).toEqual([]);
  });

  it('gives a message to a long number the SMSC writes without + to the company it is assigned to', async () => {
    const from = uniqueNumber(2);
    await handsetSends({ from, to: longNumber.slice(1), text: 'no plus', to_ton: 0 });
    const [message] = await eventuallyListed(owner, `from=${encodeURIComponent(from)}`, 1);
    expect(message).toMatchObject({ from, to: longNumber.slice(1), text: 'no plus', parts: 1 });
    expect((await inboundOf(owner, `to=${encodeURIComponent(longNumber)}`)).map((item) => item.id)).toContain(message.id);
    expect(await inboundOf(other, `from=${encodeURIComponent(from)}`)).toEqual([]);
  });

  it('keeps a message to an unassigned number for the operator: admin inbound:list --unassigned shows it, no company lists it', async () => {
    const from = uniqueNumber(3);
    const unassigned = uniqueNumber(4);
    const marker = uniqueNumber(5);
    await handsetSends({ from, to: unassigned, text: 'Is anyone there?' });
    // A message sent after it to the owner's number arrives after it: the first is stored by then.
    await handsetSends({ from: marker, to: longNumber, text: 'marker' });
    await eventuallyListed(owner, `from=${encodeURIComponent(marker)}`, 1);

    const listing = await runAdmin(['inbound:list', '--unassigned', '--to', unassigned.slice(1), '--limit', '10']);
    expect(listing.code).toBe(0);
    expect(listing.json).toEqual({
      items: [
        { id: expect.any(String), from, to: unassigned, text: 'Is anyone there?', parts: 1, carrier: expect.any(String), received_at: expect.any(String) },
      ],
      next_cursor: null,
    });
    const byHandset = await runAdmin(['inbound:list', '--unassigned', '--from', from]);
    expect(byHandset.json).toMatchObject({ items: [{ to: unassigned }] });
    expect((await runAdmin(['inbound:list', '--unassigned', '--from', marker])).json).toEqual({ items: [], next_cursor: null });
    for (const company of [owner, other]) expect(await inboundOf(company, `from=${encodeURIComponent(from)}`)).toEqual([]);
    const id = (listing.json as { items: InboundMessage[] }).items[0].id;
    expect((await api.as(owner).get(`/sms/inbound/${id}`)).status).toBe(404);
  });

  it('refuses a bad inbound:list command line', async () => {
    expect((await runAdmin(['inbound:list'])).code).toBe(2);
    expect((await runAdmin(['inbound:list', '--unassigned', '--company', owner.company_id])).code).toBe(2);
    const badNumber = await runAdmin(['inbound:list', '--unassigned', '--to', 'nobody']);
    expect(badNumber.code).toBe(1);
    expect(badNumber.stderr).toContain('--to must be a number');
    expect((await runAdmin(['inbound:list', '--unassigned', '--cursor', 'garbage'])).code).toBe(1);
    expect((await runAdmin(['inbound:list', '--unassigned', '--limit', '0'])).code).toBe(1);
  });
});
