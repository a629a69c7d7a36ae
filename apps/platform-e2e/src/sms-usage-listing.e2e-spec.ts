import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, type ApiAnswer, type Company, type Json } from './support/api-client';

type Item = Json & { message_id: string; to: string; from: string; message: string | null; otp_id: string | null; campaign_id: string | null };
type Page<T> = { data: { items: T[]; next_cursor: string | null } };
type Sums = { messages: number; parts: number; charged: number; refunded: number; spent: number };
type Usage = { data: { lines: (Sums & { key: string | null })[]; total: Sums } };
type Entry = { id: number; kind: string; amount: number };

const GB = '+447400953101';
const GB_SCHEDULED = '+447400953102';
const FR = '+33612953103';
const US_OTP = '+14155953104';
const CAMPAIGN = ['+447400953105', '+33612953106'];

/** Units of 1/10000: sums of JSON money compared exactly. */
const units = (amount: number) => Math.round(amount * 10_000);
const sumUnits = (amounts: number[]) => amounts.reduce((sum, amount) => sum + units(amount), 0);

/** RFC 4180 as the gateway writes it (no quoted commas in these fixtures). */
const csvRows = (text: string) =>
  text
    .split('\r\n')
    .filter((line) => line !== '')
    .map((line) => line.split(','));

/** GET /sms and GET /usage (JSON and CSV) over the real gateway, dispatcher and SMSC simulator. */
describe('Listing messages and usage', () => {
  let stack: RunningStack;
  let acme: Company;
  let other: Company;
  let campaignId: string;
  let otpId: string;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );

  const listAll = async (query: string, limit = 100): Promise<Item[]> => {
    const items: Item[] = [];
    let cursor: string | null = null;
    do {
      const answer: ApiAnswer<Page<Item>> = await api.get<Page<Item>>(`/sms?limit=${limit}${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(answer.status).toBe(200);
      items.push(...answer.body.data.items);
      cursor = answer.body.data.next_cursor;
    } while (cursor !== null);
    return items;
  };

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Listing Acme', '5');
    other = await createCompany('Listing Other', '5');
    const httpPort = await freePort();
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });
    const first = await api.post('/sms/send', { to: GB, message: 'Hello GB', from: 'ListCo', reference: 'listing-ref-1' });
    expect(first.status).toBe(200);
    const later = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await api.post('/sms/send', { to: GB_SCHEDULED, message: 'Later', scheduled_time: later })).status).toBe(200);
    expect((await api.post('/sms/send', { to: FR, message: 'Bonjour' })).status).toBe(200);
    const otp = await api.post<{ verification_id: string }>('/otp/send', { appid: acme.appid, recipient: US_OTP });
    expect(otp.status).toBe(200);
    otpId = otp.body.verification_id;
    const campaign = await api.post<{ data: { campaign_id: string } }>('/sms/send-bulk', { recipients: CAMPAIGN, message: 'Sale', from: 'ListCo' });
    expect(campaign.status).toBe(200);
    campaignId = campaign.body.data.campaign_id;
    await eventually(
      () => listAll(''),
      (items) => items.length === 6,
    );
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('lists every message, the OTP’s without its text', async () => {
    const items = await listAll('');
    expect(items.map((item) => item.to).sort()).toEqual([GB, GB_SCHEDULED, FR, US_OTP, ...CAMPAIGN].sort());
    const otp = items.find((item) => item.to === US_OTP);
    expect(otp).toMatchObject({ message: null, otp_id: otpId, campaign_id: null });
    expect(items.find((item) => item.to === GB)).toMatchObject({ message: 'Hello GB', from: 'ListCo', reference: 'listing-ref-1', otp_id: null, parts: 1 });
    const single = await api.get<{ data: Json }>(`/sms/${items.find((item) => item.to === FR)?.message_id}`);
    expect(items.find((item) => item.to === FR)).toMatchObject({
      cost: single.body.data['cost'],
      route: single.body.data['route'],
      created_at: single.body.data['created_at'],
    });
  });

  it.each([
    ['&status=scheduled', [GB_SCHEDULED]],
    [`&to=${encodeURIComponent(FR)}`, [FR]],
    ['&from=ListCo', [GB, ...CAMPAIGN]],
    ['&reference=listing-ref-1', [GB]],
    ['&date_from=2099-01-01', []],
    ['&date_to=2000-01-01', []],
  ])('filters by %s', async (query, numbers) => {
    expect((await listAll(query)).map((item) => item.to).sort()).toEqual([...numbers].sort());
  });

  it('filters by campaign and by a date range that holds them all', async () => {
    expect((await listAll(`&campaign_id=${campaignId}`)).map((item) => item.to).sort()).toEqual([...CAMPAIGN].sort());
    const today = new Date().toISOString().slice(0, 10);
    expect(await listAll(`&date_from=${today}&date_to=${today}`)).toHaveLength(6);
  });

  it('pages by cursor: every message once, newest first', async () => {
    const whole = await listAll('');
    const paged = await listAll('', 2);
    expect(paged.map((item) => item.message_id)).toEqual(whole.map((item) => item.message_id));
    const created = paged.map((item) => String(item['created_at']));
    expect([...created].sort().reverse()).toEqual(created);
  });

  it('shows another company none of them', async () => {
    const theirs = await api.as(other).get<Page<Item>>('/sms?limit=100');
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.items).toEqual([]);
    expect((await api.as(other).get<Page<Item>>(`/sms?campaign_id=${campaignId}`)).body.data.items).toEqual([]);
    const usage = await api.as(other).get<Usage>('/usage');
    expect(usage.body.data.total.messages).toBe(0);
  });

  it.each([
    ['/sms?status=sending', 'status must be'],
    ['/sms?date_from=yesterday', 'date_from must be'],
    ['/sms?date_from=2026-02-30', 'date_from must be'],
    ['/sms?date_from=2026-11-02&date_to=2026-11-01', 'date_from must be before date_to'],
    ['/sms?cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['/sms?cursor=***', 'cursor must be'],
    ['/sms?limit=1000000', 'limit must be an integer from 1 to 100'],
    ['/sms?to=abc', 'to must be'],
    ['/sms?campaign_id=42', 'campaign_id must be'],
    ['/sms?colour=red', 'colour is not a known query parameter'],
    ['/usage?group_by=planet', 'group_by must be one of'],
    ['/usage?date_from=2020-01-01&date_to=2026-01-01', 'the range must be at most 366 days'],
    ['/usage?format=xml', 'format must be one of'],
    ['/usage/ledger?kind=gift', 'kind must be'],
    ['/usage/ledger?cursor=bm90LWEtY3Vyc29y', 'cursor'],
    ['/usage/ledger?format=csv&date_to=nope', 'date_to must be'],
  ])('refuses %s with a 400', async (path, error) => {
    const answer = await api.get<{ error: string }>(path);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
  });

  it('sums the usage exactly to the ledger’s charges less refunds, by day, country and route', async () => {
    const entries: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: Page<Entry> } = await api.get<Page<Entry>>(`/usage/ledger?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      entries.push(...page.body.data.items);
      cursor = page.body.data.next_cursor;
    } while (cursor !== null);
    const charged = -sumUnits(entries.filter((entry) => entry.kind === 'charge').map((entry) => entry.amount));
    const refunded = sumUnits(entries.filter((entry) => entry.kind === 'refund').map((entry) => entry.amount));
    expect(charged).toBeGreaterThan(0);
    for (const group of ['day', 'country', 'route']) {
      const usage = (await api.get<Usage>(`/usage?group_by=${group}`)).body.data;
      expect(units(usage.total.charged)).toBe(charged);
      expect(units(usage.total.refunded)).toBe(refunded);
      expect(sumUnits(usage.lines.map((line) => line.spent))).toBe(charged - refunded);
      expect(usage.total.messages).toBe(6);
    }
    const countries = (await api.get<Usage>('/usage?group_by=country')).body.data.lines;
    expect(countries.map((line) => [line.key, line.messages])).toEqual([
      ['FR', 2],
      ['GB', 3],
      ['US', 1],
    ]);
  });

  it('answers CSV for format=csv and for Accept: text/csv, matching the JSON', async () => {
    const json = (await api.get<Usage>('/usage?group_by=country')).body.data.lines;
    for (const answer of [await api.get('/usage?group_by=country&format=csv'), await api.get('/usage?group_by=country', { headers: { accept: 'text/csv' } })]) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toContain('text/csv');
      const [header, ...rows] = csvRows(answer.text);
      expect(header).toEqual(['key', 'messages', 'parts', 'charged', 'refunded', 'spent']);
      expect(rows).toEqual(
        json.map((line) => [
          line.key ?? '',
          String(line.messages),
          String(line.parts),
          line.charged.toFixed(4),
          line.refunded.toFixed(4),
          line.spent.toFixed(4),
        ]),
      );
    }
    const ledger = (await api.get<Page<Entry & { balance_after: number }>>('/usage/ledger?limit=100')).body.data.items;
    const csv = await api.get('/usage/ledger', { headers: { accept: 'text/csv' } });
    const [header, ...rows] = csvRows(csv.text);
    expect(header.slice(0, 5)).toEqual(['id', 'created_at', 'kind', 'amount', 'balance_after']);
    expect(rows.map((row) => [Number(row[0]), row[2], Number(row[3]), Number(row[4])])).toEqual(
      ledger.map((entry) => [entry.id, entry.kind, entry.amount, entry.balance_after]),
    );
  });
});
