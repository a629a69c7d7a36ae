import { admin, startStack, type RunningStack } from '@mp/testing';
import jwt from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';

const JWT_SECRET = 'e2e-jwt-secret-'.padEnd(48, 'z');
const basic = (key: string, secret: string) => `Basic ${Buffer.from(`${key}:${secret}`).toString('base64')}`;
const bearerPair = (key: string, secret: string) => `Bearer ${Buffer.from(`${key}:${secret}`).toString('base64')}`;

interface Company {
  company_id: string;
  api_key: string;
  api_secret: string;
}

/** Authentication and company scoping through the real gateway process, PostgreSQL and Redis. */
describe('gateway authentication', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${stack.gatewayUrl}${path}`, { headers });
  const postJson = (path: string, body: unknown) =>
    fetch(`${stack.gatewayUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = (await admin(['company:create', '--name', 'Acme', '--balance', '10'])) as unknown as Company;
    globex = (await admin(['company:create', '--name', 'Globex', '--balance', '3.5', '--currency', 'USD'])) as unknown as Company;
    stack = await startStack({ apps: ['gateway'], env: { JWT_SECRET, AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function expectBalance(headers: Record<string, string>, balance: number, currency: string) {
    const response = await get('/balance', headers);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'success', message: 'Balance retrieved', data: { balance, currency } });
  }

  async function expectUnauthorized(headers: Record<string, string>, path = '/balance') {
    const response = await get(path, headers);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('Bearer');
    expect(await response.json()).toEqual({ error: 'Unauthorized' });
  }

  it('answers GET /balance with the key pair headers', async () => {
    await expectBalance({ 'x-api-key': acme.api_key, 'x-api-secret': acme.api_secret }, 10, 'EUR');
  });

  it('answers with Basic credentials', async () => {
    await expectBalance({ authorization: basic(acme.api_key, acme.api_secret) }, 10, 'EUR');
  });

  it('answers with Bearer base64(key:secret)', async () => {
    await expectBalance({ authorization: bearerPair(acme.api_key, acme.api_secret) }, 10, 'EUR');
  });

  it('issues a JWT at POST /auth/token and accepts it as Bearer, also under /v1', async () => {
    const response = await postJson('/auth/token', { api_key: acme.api_key, api_secret: acme.api_secret });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toEqual({ status: 'success', access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const decoded = jwt.decode(String(body['access_token']), { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    await expectBalance({ authorization: `Bearer ${body['access_token']}` }, 10, 'EUR');
    const versioned = await get('/v1/balance', { authorization: `Bearer ${body['access_token']}` });
    expect(versioned.status).toBe(200);
  });

  it('scopes every answer to the caller’s company', async () => {
    await expectBalance({ 'x-api-key': globex.api_key, 'x-api-secret': globex.api_secret }, 3.5, 'USD');
    await admin(['balance:topup', '--company', acme.company_id, '--amount', '0.0125']);
    await expectBalance({ authorization: basic(acme.api_key, acme.api_secret) }, 10.0125, 'EUR');
    await expectBalance({ authorization: basic(globex.api_key, globex.api_secret) }, 3.5, 'USD');
  });

  it('refuses missing, half, wrong and unknown credentials', async () => {
    await expectUnauthorized({});
    await expectUnauthorized({ 'x-api-key': acme.api_key });
    await expectUnauthorized({ 'x-api-key': acme.api_key, 'x-api-secret': `${acme.api_secret}x` });
    await expectUnauthorized({ 'x-api-key': acme.api_key, 'x-api-secret': globex.api_secret });
    await expectUnauthorized({ authorization: basic('mpk_unknown', acme.api_secret) });
    await expectUnauthorized({ authorization: 'Bearer not-base64-or-jwt!' });
    await expectUnauthorized({ authorization: 'Digest whatever' });
  });

  it('refuses forged tokens: alg none, wrong signature, expired, another company', async () => {
    const token = (await (await postJson('/auth/token', { api_key: acme.api_key, api_secret: acme.api_secret })).json()) as {
      access_token: string;
    };
    const claims = jwt.decode(token.access_token) as jwt.JwtPayload;
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    await expectUnauthorized({ authorization: `Bearer ${unsigned}` });
    const wrongKey = jwt.sign({ cid: claims['cid'] }, 'another-secret-'.padEnd(48, 'q'), {
      subject: claims.sub,
      issuer: 'messaging-platform',
      expiresIn: 600,
    });
    await expectUnauthorized({ authorization: `Bearer ${wrongKey}` });
    const expired = jwt.sign({ cid: claims['cid'], exp: Math.floor(Date.now() / 1000) - 60 }, JWT_SECRET, {
      subject: claims.sub,
      issuer: 'messaging-platform',
    });
    await expectUnauthorized({ authorization: `Bearer ${expired}` });
    const otherCompany = jwt.sign({ cid: globex.company_id }, JWT_SECRET, { subject: claims.sub, issuer: 'messaging-platform', expiresIn: 600 });
    await expectUnauthorized({ authorization: `Bearer ${otherCompany}` });
  });

  it('refuses a revoked key and the tokens issued for it', async () => {
    const pair = (await admin(['key:create', '--company', acme.company_id])) as { api_key: string; api_secret: string };
    const headers = { 'x-api-key': pair.api_key, 'x-api-secret': pair.api_secret };
    const { access_token } = (await (await postJson('/auth/token', { api_key: pair.api_key, api_secret: pair.api_secret })).json()) as {
      access_token: string;
    };
    await expectBalance(headers, 10.0125, 'EUR');
    await admin(['key:revoke', '--key', pair.api_key]);
    await expectUnauthorized(headers);
    await expectUnauthorized({ authorization: `Bearer ${access_token}` });
    const refused = await postJson('/auth/token', { api_key: pair.api_key, api_secret: pair.api_secret });
    expect(refused.status).toBe(401);
  });

  it('answers bad token requests with 400 naming the field, and a wrong secret with 401', async () => {
    const missing = await postJson('/auth/token', { api_key: acme.api_key });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ error: 'api_secret is required' });
    const malformed = await fetch(`${stack.gatewayUrl}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"api_key": ',
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: expect.any(String) });
    const wrong = await postJson('/auth/token', { api_key: acme.api_key, api_secret: 'nope' });
    expect(wrong.status).toBe(401);
  });

  it('leaves health and docs open, answers unknown routes with 404 { error }, and echoes X-Request-Id', async () => {
    for (const path of ['/health', '/health/live', '/health/ready', '/docs/openapi.json']) {
      expect((await get(path)).status).toBe(200);
    }
    const unknown = await get('/nowhere', { 'x-request-id': 'trace-me-123' });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('trace-me-123');
    expect(await unknown.json()).toEqual({ error: 'Not found' });
  });

  describe('throttle of failed key checks', () => {
    const send = (path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) =>
      fetch(`${stack.gatewayUrl}${path}`, {
        method: init.body === undefined ? 'GET' : 'POST',
        headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });

    async function expectThrottled(response: Response) {
      expect(response.status).toBe(429);
      const body = (await response.json()) as { error: string; retry_after: number };
      expect(body).toEqual({ error: `Too many failed authentication attempts; try again in ${body.retry_after} seconds`, retry_after: expect.any(Number) });
      expect(body.retry_after).toBeGreaterThan(60);
      expect(body.retry_after).toBeLessThanOrEqual(15 * 60);
      expect(response.headers.get('retry-after')).toBe(String(body.retry_after));
    }

    it('refuses a key after 10 wrong secrets, the right one too, on /auth/token and every route; other keys still work', async () => {
      const guessed = (await admin(['company:create', '--name', 'Guessed', '--balance', '1'])) as unknown as Company;
      const guess = () => send('/auth/token', { body: { api_key: guessed.api_key, api_secret: 'a-guess' } });
      for (let i = 0; i < 10; i++) expect((await guess()).status).toBe(401);
      await expectThrottled(await guess());
      await expectThrottled(await send('/auth/token', { body: { api_key: guessed.api_key, api_secret: guessed.api_secret } }));
      await expectThrottled(await send('/balance', { headers: { authorization: basic(guessed.api_key, guessed.api_secret) } }));
      expect((await send('/balance', { headers: { authorization: basic(acme.api_key, acme.api_secret) } })).status).toBe(200);
    });

    it('refuses an address after 50 failed checks, as a proxy in front of the gateway names it; callers elsewhere still get in', async () => {
      const from = { 'x-forwarded-for': '198.51.100.7' };
      for (let i = 0; i < 50; i++) {
        const unknownKey = `mpk_${randomBytes(16).toString('base64url')}`;
        expect((await send('/balance', { headers: { ...from, 'x-api-key': unknownKey, 'x-api-secret': 'x' } })).status).toBe(401);
      }
      await expectThrottled(await send('/balance', { headers: { ...from, 'x-api-key': globex.api_key, 'x-api-secret': globex.api_secret } }));
      await expectThrottled(await send('/auth/token', { headers: from, body: { api_key: globex.api_key, api_secret: globex.api_secret } }));
      expect((await send('/balance', { headers: { 'x-forwarded-for': '198.51.100.8', 'x-api-key': globex.api_key, 'x-api-secret': globex.api_secret } })).status).toBe(200);
      expect((await send('/balance', { headers: { 'x-api-key': globex.api_key, 'x-api-secret': globex.api_secret } })).status).toBe(200);
    });
  });
});
