import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import Redis from 'ioredis';
import { Client } from 'pg';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

interface Handset {
  text: string;
  received_at: string;
}

/** OTPs over SMS through HTTP, the queue and SMPP, the code read from "the phone" (the SMSC simulator). */
describe('OTP over SMS end to end', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let db: Client;
  let acme: Company;
  let nextNumber = 612300000;
  const newNumber = () => `+33${nextNumber++}`;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => acme,
  );
  const handset = (to: string) => simulatorMessages<Handset>(simulatorUrl, to);
  /** The text of the n-th message the phone received (1-based), once it has. */
  const nthText = async (to: string, n = 1) => {
    const received = await eventually(
      () => handset(to),
      (list) => list.length >= n,
    );
    expect(received.length).toBeGreaterThanOrEqual(n);
    return received[n - 1].text;
  };
  const codeIn = (text: string) => /(\d{4,8})/.exec(text)?.[1] ?? '';

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme', '5');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    // Debug logs: the most any process writes, for the scan of the logs for a plain code.
    stack = await startStack({ apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'], env: { SMSC_SIMULATOR_PORT: String(httpPort), LOG_LEVEL: 'debug' } });
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end();
    await stack?.stop();
  });

  it('sends a code the phone receives, answering 2.1, and verifies it once', async () => {
    const to = newNumber();
    const sent = await api.post('/otp/send', { appid: acme.appid, phone: to });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({
      status: 'success',
      recipient: to,
      channel: 'sms',
      verification_id: expect.any(String),
      expires_at: expect.any(String),
      cost: 0.01,
    });
    const text = await nthText(to);
    expect(text).toMatch(new RegExp(`^Your ${acme.app_name} verification code is \\d{6}\\. It expires in 10 minutes\\.$`));
    const verified = await api.post('/v1/otp/verify', { verification_id: sent.body['verification_id'], code: codeIn(text) });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ status: 'success', verified: true, recipient: to, verified_at: expect.any(String) });
    const again = await api.post('/otp/verify', { appid: acme.appid, recipient: to, otp_code: codeIn(text) });
    expect(again).toMatchObject({ status: 400, body: { error: 'OTP already verified' } });
  });

  it('blocks a recipient after three wrong codes: the right code and a new send are refused with retry_after', async () => {
    const to = newNumber();
    const sent = await api.post('/otp/send', { appid: acme.appid, recipient: to, otp_length: 8 });
    const code = codeIn(await nthText(to));
    expect(code).toHaveLength(8);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const answer = await api.post('/otp/verify', { verification_id: sent.body['verification_id'], otp_code: wrong });
      expect(answer.status).toBe(400);
      expect(answer.body['error']).toBe('Invalid OTP code');
      remaining.push(answer.body['attempts_remaining']);
    }
    expect(remaining).toEqual([2, 1, 0]);
    const right = await api.post('/otp/verify', { verification_id: sent.body['verification_id'], otp_code: code });
    expect(right.status).toBe(429);
    expect(right.body['retry_after']).toBeGreaterThan(1700);
    const resend = await api.post('/otp/send', { appid: acme.appid, recipient: to });
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBe(resend.body['retry_after']);
  });

  it('resends a new code under the same id: the old code is refused, the new one verifies; too soon is 429', async () => {
    const to = newNumber();
    const sent = await api.post('/otp/send', { appid: acme.appid, recipient: to });
    const first = codeIn(await nthText(to));
    const tooSoon = await api.post('/otp/resend', { verification_id: sent.body['verification_id'] });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body['retry_after']).toBeGreaterThanOrEqual(25);
    await db.query(`UPDATE otps SET last_sent_at = last_sent_at - interval '31 seconds' WHERE id = $1`, [sent.body['verification_id']]);
    const resent = await api.post('/otp/resend', { appid: acme.appid, phone: to });
    expect(resent.status).toBe(200);
    expect(resent.body).toMatchObject({ status: 'success', message: 'OTP resent', verification_id: sent.body['verification_id'], recipient: to });
    const second = codeIn(await nthText(to, 2));
    if (second !== first) {
      const old = await api.post('/otp/verify', { verification_id: sent.body['verification_id'], otp_code: first });
      expect(old).toMatchObject({ status: 400, body: { error: 'Invalid OTP code' } });
    }
    const verified = await api.post('/otp/verify', { verification_id: sent.body['verification_id'], otp_code: second });
    expect(verified.status).toBe(200);
  });

  it('renders a template with custom_vars exactly, an unknown variable left out', async () => {
    const to = newNumber();
    const sent = await api.post('/otp/send', {
      appid: acme.appid,
      to,
      otp_code: '4242',
      template: 'Hi {{name}}, {{ otp }} is your {{appname}} code for {{shop}}{{nowhere}} ({{expiry_minutes}} min, {{channel}}, {{lang}})',
      custom_vars: { name: 'Ann', shop: 'Acme Store', otp: '0000' },
      expiry_minutes: 5,
    });
    expect(sent.status).toBe(200);
    expect(await nthText(to)).toBe(`Hi Ann, 4242 is your ${acme.app_name} code for Acme Store (5 min, sms, en)`);
  });

  it('renders a template id in the language asked for, else in en, {{lang}} showing the language used', async () => {
    const created = await admin(['template:create', '--appid', acme.appid, '--text', 'Your code {{otp}} ({{lang}})']);
    expect(created).toEqual({ template_id: expect.any(Number), lang: 'en' });
    const id = Number(created['template_id']);
    expect(await admin(['template:translate', '--template', String(id), '--lang', 'pt', '--text', 'O seu código {{otp}} ({{lang}})'])).toEqual({
      template_id: id,
      lang: 'pt',
      created: true,
    });
    const texts = [];
    for (const lang of ['pt', 'fr', 'en']) {
      const to = newNumber();
      const sent = await api.post('/otp/send', { appid: acme.appid, to, otp_code: '4243', template: id, lang });
      expect(sent.status).toBe(200);
      texts.push(await nthText(to));
    }
    expect(texts).toEqual(['O seu código 4243 (pt)', 'Your code 4243 (en)', 'Your code 4243 (en)']);
  });

  it('refuses the 21st send within a minute with 429, retry_after and Retry-After', async () => {
    const busy = await createCompany('Busy', '5');
    const answers = [];
    for (let i = 0; i < 21; i++) answers.push(await api.as(busy).post('/otp/send', { appid: busy.appid, recipient: newNumber() }));
    expect(answers.slice(0, 20).every((a) => a.status === 200)).toBe(true);
    const refused = answers[20];
    expect(refused.status).toBe(429);
    expect(refused.body['error']).toMatch(/try again in \d+ seconds/);
    expect(refused.body['retry_after']).toBeGreaterThanOrEqual(1);
    expect(refused.body['retry_after']).toBeLessThanOrEqual(60);
    expect(refused.headers.get('retry-after')).toBe(String(refused.body['retry_after']));
  });

  it('refuses, before charging, a country the application does not allow and a prefix over its hourly limit, and logs both', async () => {
    const guarded = await createCompany('Guarded', '1');
    await admin(['app:update', '--appid', guarded.appid, '--set', 'allowed_countries=FR', '--set', 'otp_prefix_limit_per_hour=2']);
    const balance = async () => (await api.as(guarded).get<{ data: { balance: number } }>('/balance')).body.data.balance;

    const abroad = await api.as(guarded).post('/otp/send', { appid: guarded.appid, recipient: '+447400123456' });
    expect(abroad).toMatchObject({ status: 403, body: { error: 'Destination country GB is not allowed for this application' } });
    const sameRange = ['+33698760001', '+33698760002', '+33698760003'];
    const answers = [];
    for (const to of sameRange) answers.push(await api.as(guarded).post('/otp/send', { appid: guarded.appid, recipient: to }));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429]);
    expect(answers[2].body['error']).toMatch(/^Too many OTPs to numbers starting \+3369876 this hour/);
    expect(answers[2].body['retry_after']).toBeGreaterThan(3500);
    expect(await balance()).toBe(0.98);
    const { rows } = await db.query(`SELECT event, detail->>'reason' AS reason FROM otp_events WHERE company_id = $1 AND event = 'refused' ORDER BY id`, [
      guarded.company_id,
    ]);
    expect(rows).toEqual([
      { event: 'refused', reason: 'country' },
      { event: 'refused', reason: 'prefix-velocity' },
    ]);
  });

  it('answers the errors of the interface for bad input', async () => {
    expect(await api.post('/otp/send', { recipient: newNumber() })).toMatchObject({ status: 400, body: { error: 'appid is required' } });
    expect(await api.post('/otp/send', { appid: acme.appid, recipient: '12345' })).toMatchObject({
      status: 400,
      body: { error: 'Invalid phone number format' },
    });
    expect(await api.post('/otp/send', { appid: 'app_nope', recipient: newNumber() })).toMatchObject({ status: 404 });
    expect(await api.post('/otp/send', { appid: acme.appid, recipient: newNumber(), otp_length: 9 })).toMatchObject({
      status: 400,
      body: { error: 'otp_length must be an integer from 4 to 8' },
    });
    expect(await api.post('/otp/verify', { verification_id: 'nope', code: '123456' })).toMatchObject({ status: 404 });
  });

  it('never keeps the plain code: not in PostgreSQL, not in Redis, not in the logs, not in the answer', async () => {
    const code = '73915062';
    const to = newNumber();
    const sent = await api.post('/otp/send', { appid: acme.appid, recipient: to, otp_code: code });
    expect(JSON.stringify(sent.body)).not.toContain(code);
    expect(codeIn(await nthText(to))).toBe(code);
    // The dispatcher has submitted it; give its outbox and events a moment to settle.
    await new Promise((resolve) => setTimeout(resolve, 500));

    const { rows: tables } = await db.query<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'`);
    // The scan sees rows: the recipient's number is there, in the OTP and its message.
    const { rows: withNumber } = await db.query(`SELECT 1 FROM otps t WHERE t::text LIKE $1`, [`%${to}%`]);
    expect(withNumber).toHaveLength(1);
    for (const { name } of tables) {
      const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM ${db.escapeIdentifier(name)} t WHERE t::text LIKE $1`, [`%${code}%`]);
      expect({ table: name, rows: Number(rows[0].n) }).toEqual({ table: name, rows: 0 });
    }

    const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    try {
      const keys = await redis.keys(`${process.env['QUEUE_PREFIX']}*`);
      expect(keys.length).toBeGreaterThan(0);
      for (const key of keys) expect({ key, holds: (await dumpKey(redis, key)).includes(code) }).toEqual({ key, holds: false });
    } finally {
      redis.disconnect();
    }

    const lines = stack.logs().split('\n');
    // The carrier's side (the simulator) logs what the phone received: the scan does read the logs.
    expect(lines.some((line) => line.includes('[smsc-simulator]') && line.includes(code))).toBe(true);
    const ours = lines.filter((line) => !line.includes('[smsc-simulator]'));
    expect(ours.filter((line) => line.includes(code))).toEqual([]);
  });
});

async function dumpKey(redis: Redis, key: string): Promise<string> {
  switch (await redis.type(key)) {
    case 'string':
      return (await redis.get(key)) ?? '';
    case 'hash':
      return JSON.stringify(await redis.hgetall(key));
    case 'list':
      return JSON.stringify(await redis.lrange(key, 0, -1));
    case 'set':
      return JSON.stringify(await redis.smembers(key));
    case 'zset':
      return JSON.stringify(await redis.zrange(key, 0, -1));
    case 'stream':
      return JSON.stringify(await redis.xrange(key, '-', '+'));
    default:
      return '';
  }
}
