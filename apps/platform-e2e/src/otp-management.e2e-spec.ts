import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, simulatorMessages, type ApiAnswer, type Company, type Json } from './support/api-client';

type Page = { items: Json[]; page: number; limit: number; total: number };

/** The GET /otp/* management endpoints over HTTP, on OTPs sent, delivered and verified for real. */
describe('OTP management endpoints end to end', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let acme: Company;
  let other: Company;
  const to = ['+33612370001', '+33612370002'];
  const ids: string[] = [];
  const codes: string[] = [];
  /** Every body a management endpoint answered, to check none holds a code. */
  const answered: string[] = [];

  const api = new ApiClient(() => stack.gatewayUrl);
  const get = async (company: Company, path: string) => {
    const answer = await api.as(company).get(path);
    answered.push(answer.text);
    return answer;
  };
  const data = <T = Json>(answer: ApiAnswer) => answer.body['data'] as T;
  const codeSentTo = async (number: string) => {
    const received = await eventually(
      () => simulatorMessages<{ text: string }>(simulatorUrl, number),
      (list) => list.length > 0,
    );
    expect(received).toHaveLength(1);
    return /(\d{8})/.exec(received[0].text)?.[1] ?? '';
  };

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme Mgmt', '5');
    other = await createCompany('Other Mgmt', '5');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort) } });

    for (const number of to) {
      const sent = await api.as(acme).post('/otp/send', { appid: acme.appid, recipient: number, otp_length: 8 });
      expect(sent.status).toBe(200);
      ids.push(sent.body['verification_id'] as string);
      codes.push(await codeSentTo(number));
    }
    expect(await api.as(acme).post('/otp/verify', { verification_id: ids[0], otp_code: codes[0] })).toMatchObject({ status: 200 });
    const wrong = codes[1] === '00000000' ? '11111111' : '00000000';
    expect(await api.as(acme).post('/otp/verify', { verification_id: ids[1], otp_code: wrong })).toMatchObject({ status: 400 });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('answers the rate limit used by the two sends, and no blocked recipient', async () => {
    const limits = await get(acme, '/otp/rate-limits');
    expect(limits.status).toBe(200);
    expect(limits.body).toMatchObject({ status: 'success', data: { limit: 20, used: 2, remaining: 18, window_seconds: 60, blocked_recipients: [] } });
    expect(Date.parse(data(limits)['reset_at'] as string)).toBeGreaterThan(Date.now());
  });

  it('answers the status of an OTP, also under /v1/, without its code or hash', async () => {
    const verified = await get(acme, `/otp/status?verification_id=${ids[0]}`);
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({
      status: 'success',
      data: { verification_id: ids[0], appid: acme.appid, recipient: to[0], channel: 'sms', status: 'verified', sender: 'OTP', resends: 0, cost: 0.01 },
    });
    expect(Object.keys(data(verified)).sort()).toEqual(
      [
        'verification_id',
        'appid',
        'recipient',
        'channel',
        'status',
        'sender',
        'lang',
        'expires_at',
        'created_at',
        'last_sent_at',
        'resends',
        'verified_at',
        'cost',
        'failure_reason',
        'error_code',
      ].sort(),
    );
    expect(data(verified)).toMatchObject({ verified_at: expect.any(String), failure_reason: null, error_code: null });
    expect(await get(acme, `/v1/otp/status?verification_id=${ids[1]}`)).toMatchObject({
      status: 200,
      body: { data: { status: 'pending', verified_at: null } },
    });
  });

  it('lists OTPs newest first, filtered by status, paginated', async () => {
    const all = data<Page>(await get(acme, '/otp/list'));
    expect(all).toMatchObject({ page: 1, limit: 20, total: 2 });
    expect(all.items.map((item) => item['verification_id'])).toEqual([ids[1], ids[0]]);
    const verified = data<Page>(await get(acme, '/otp/list?status=verified'));
    expect(verified.items.map((item) => item['verification_id'])).toEqual([ids[0]]);
    const second = data<Page>(await get(acme, `/otp/list?limit=1&page=2&appid=${acme.appid}&recipient=${encodeURIComponent(to[0])}`));
    expect(second).toMatchObject({ page: 2, limit: 1, total: 1, items: [] });
    expect(data<Page>(await get(acme, `/otp/list?recipient=${to[1]}`)).total).toBe(1); // the + arrives as a space
  });

  it('answers 400 naming the bad parameter, and 404 for an id that is not one', async () => {
    expect(await get(acme, '/otp/list?limit=101')).toMatchObject({ status: 400, body: { error: 'limit must be an integer from 1 to 100' } });
    expect(await get(acme, '/otp/logs?from=yesterday')).toMatchObject({ status: 400, body: { error: 'from must be an ISO 8601 date' } });
    expect(await get(acme, '/otp/attempts?outcome=maybe')).toMatchObject({ status: 400 });
    expect(await get(acme, '/otp/status')).toMatchObject({ status: 400, body: { error: 'verification_id is required' } });
    expect(await get(acme, '/otp/status?verification_id=not-a-uuid')).toMatchObject({ status: 404, body: { error: 'OTP not found' } });
    expect(await get(acme, '/otp/list?appid=app_nope')).toMatchObject({ status: 404, body: { error: 'Application not found' } });
  });

  it('shows the log of what happened', async () => {
    const first = data<Page>(await get(acme, `/otp/logs?verification_id=${ids[0]}`));
    const events = first.items.map((item) => item['event']);
    expect(events).toEqual(expect.arrayContaining(['verified', 'sent']));
    expect(events.indexOf('verified')).toBeLessThan(events.indexOf('sent'));
    const failed = data<Page>(await get(acme, '/otp/logs?event=failed_attempt'));
    expect(failed.items).toEqual([expect.objectContaining({ verification_id: ids[1], appid: acme.appid, recipient: to[1], event: 'failed_attempt' })]);
  });

  it('shows the verification attempts with their outcome', async () => {
    const all = data<Page>(await get(acme, '/otp/attempts'));
    expect(all.items.map((item) => [item['verification_id'], item['outcome']])).toEqual([
      [ids[1], 'invalid_code'],
      [ids[0], 'success'],
    ]);
    expect(data<Page>(await get(acme, `/otp/attempts?verification_id=${ids[0]}`)).items).toHaveLength(1);
    expect(data<Page>(await get(acme, `/otp/attempts?recipient=${encodeURIComponent(to[1])}&outcome=invalid_code`)).total).toBe(1);
  });

  it('reports sends, verifications, conversion and cost over the last 30 days', async () => {
    const report = data(await get(acme, '/otp/reports'));
    expect(report['totals']).toEqual({ sent: 2, verified: 1, conversion_rate: 0.5, cost: 0.02 });
    const created = data(await get(acme, `/otp/status?verification_id=${ids[0]}`))['created_at'] as string;
    const today = created.slice(0, 10);
    expect(report['rows']).toEqual([
      { day: today, channel: 'sms', appid: acme.appid, sent: 2, verified: 1, expired: 0, failed: 0, conversion_rate: 0.5, cost: 0.02 },
    ]);
    expect(data(await get(acme, '/otp/reports?channel=whatsapp'))['totals']).toMatchObject({ sent: 0 });
  });

  it('shows another company none of it', async () => {
    expect(await get(other, `/otp/status?verification_id=${ids[0]}`)).toMatchObject({ status: 404 });
    expect(data<Page>(await get(other, '/otp/list')).total).toBe(0);
    expect(await get(other, `/otp/logs?verification_id=${ids[0]}`)).toMatchObject({ status: 404 });
    expect(await get(other, `/otp/attempts?verification_id=${ids[1]}`)).toMatchObject({ status: 404 });
    expect(data<Page>(await get(other, '/otp/logs')).total).toBe(0);
    expect(data<Page>(await get(other, '/otp/attempts')).total).toBe(0);
    expect(await get(other, `/otp/list?appid=${acme.appid}`)).toMatchObject({ status: 404 });
    expect(data(await get(other, '/otp/reports'))['totals']).toEqual({ sent: 0, verified: 0, conversion_rate: 0, cost: 0 });
    expect(data(await get(other, '/otp/rate-limits'))).toMatchObject({ used: 0, remaining: 20, reset_at: null });
  });

  it('never answers a code', () => {
    expect(answered.length).toBeGreaterThan(20);
    for (const code of codes) expect(answered.filter((text) => text.includes(code))).toEqual([]);
  });
});
