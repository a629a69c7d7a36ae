import { admin, startStack, type RunningStack } from '@mp/testing';
import jwt from 'jsonwebtoken';
import { randomBytes } from 'node:crypto';
import {
  ApiClient,
  basicAuthHeaders,
  bearerHeaders,
  bearerPairHeaders,
  createCompany,
  jsonText,
  keyPairHeaders,
  type ApiAnswer,
  type Company,
} from './support/api-client';

const JWT_SECRET = 'e2e-jwt-secret-'.padEnd(48, 'z');

/** Authentication and company scoping through the real gateway process, PostgreSQL and Redis. */
describe('gateway authentication', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;

  /** No credentials of its own: each test sends the headers of the scheme it is about. */
  const api = new ApiClient(() => stack.gatewayUrl);

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme', '10');
    globex = await createCompany('Globex', '3.5', '--currency', 'USD');
    stack = await startStack({ apps: ['gateway'], env: { JWT_SECRET, AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  async function expectBalance(headers: Record<string, string>, balance: number, currency: string) {
    const answer = await api.get('/balance', { headers });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'success', message: 'Balance retrieved', data: { balance, currency } });
  }

  async function expectUnauthorized(headers: Record<string, string>, path = '/balance') {
    const answer = await api.get(path, { headers });
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toContain('Bearer');
    expect(answer.body).toEqual({ error: 'Unauthorized' });
  }

  it('answers GET /balance with the key pair headers', async () => {
    await expectBalance(keyPairHeaders(acme), 10, 'EUR');
  });

  it('answers with Basic credentials', async () => {
    await expectBalance(basicAuthHeaders(acme.api_key, acme.api_secret), 10, 'EUR');
  });

  it('answers with Bearer base64(key:secret)', async () => {
    await expectBalance(bearerPairHeaders(acme.api_key, acme.api_secret), 10, 'EUR');
  });

  it('issues a JWT at POST /auth/token and accepts it as Bearer, also under /v1', async () => {
    const response = await api.post('/auth/token', { api_key: acme.api_key, api_secret: acme.api_secret });
    expect(response.status).toBe(200);
    const body = response.body;
    expect(body).toEqual({ status: 'success', access_token: expect.any(String), token_type: 'Bearer', expires_in: 3600 });
    const decoded = jwt.decode(String(body['access_token']), { complete: true });
    expect(decoded?.header.alg).toBe('HS256');
    await expectBalance(bearerHeaders(String(body['access_token'])), 10, 'EUR');
    const versioned = await api.get('/v1/balance', { headers: bearerHeaders(String(body['access_token'])) });
    expect(versioned.status).toBe(200);
  });

  it('scopes every answer to the caller’s company', async () => {
    await expectBalance(keyPairHeaders(globex), 3.5, 'USD');
    await admin(['balance:topup', '--company', acme.company_id, '--amount', '0.0125']);
    await expectBalance(basicAuthHeaders(acme.api_key, acme.api_secret), 10.0125, 'EUR');
    await expectBalance(basicAuthHeaders(globex.api_key, globex.api_secret), 3.5, 'USD');
  });

  it('refuses missing, half, wrong and unknown credentials', async () => {
    await expectUnauthorized({});
    await expectUnauthorized({ 'x-api-key': acme.api_key });
    await expectUnauthorized({ 'x-api-key': acme.api_key, 'x-api-secret': `${acme.api_secret}x` });
    await expectUnauthorized({ 'x-api-key': acme.api_key, 'x-api-secret': globex.api_secret });
    await expectUnauthorized(basicAuthHeaders('mpk_unknown', acme.api_secret));
    await expectUnauthorized({ authorization: 'Bearer not-base64-or-jwt!' });
    await expectUnauthorized({ authorization: 'Digest whatever' });
  });

  it('refuses forged tokens: alg none, wrong signature, expired, another company', async () => {
    const token = (await api.post<{ access_token: string }>('/auth/token', { api_key: acme.api_key, api_secret: acme.api_secret })).body;
    const claims = jwt.decode(token.access_token) as jwt.JwtPayload;
    const unsigned = [
      Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url'),
      Buffer.from(JSON.stringify(claims)).toString('base64url'),
      '',
    ].join('.');
    await expectUnauthorized(bearerHeaders(unsigned));
    const wrongKey = jwt.sign({ cid: claims['cid'] }, 'another-secret-'.padEnd(48, 'q'), {
      subject: claims.sub,
      issuer: 'messaging-platform',
      expiresIn: 600,
    });
    await expectUnauthorized(bearerHeaders(wrongKey));
    const expired = jwt.sign({ cid: claims['cid'], exp: Math.floor(Date.now() / 1000) - 60 }, JWT_SECRET, {
      subject: claims.sub,
      issuer: 'messaging-platform',
    });
    await expectUnauthorized(bearerHeaders(expired));
    const otherCompany = jwt.sign({ cid: globex.company_id }, JWT_SECRET, { subject: claims.sub, issuer: 'messaging-platform', expiresIn: 600 });
    await expectUnauthorized(bearerHeaders(otherCompany));
  });

  it('refuses a revoked key and the tokens issued for it', async () => {
    const pair = (await admin(['key:create', '--company', acme.company_id])) as { api_key: string; api_secret: string };
    const headers = keyPairHeaders(pair);
    const { access_token } = (await api.post<{ access_token: string }>('/auth/token', { api_key: pair.api_key, api_secret: pair.api_secret })).body;
    await expectBalance(headers, 10.0125, 'EUR');
    await admin(['key:revoke', '--key', pair.api_key]);
    await expectUnauthorized(headers);
    await expectUnauthorized(bearerHeaders(access_token));
    const refused = await api.post('/auth/token', { api_key: pair.api_key, api_secret: pair.api_secret });
    expect(refused.status).toBe(401);
  });

  it('answers bad token requests with 400 naming the field, and a wrong secret with 401', async () => {
    const missing = await api.post('/auth/token', { api_key: acme.api_key });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'api_secret is required' });
    const malformed = await api.post('/auth/token', jsonText('{"api_key": '));
    expect(malformed.status).toBe(400);
    expect(malformed.body).toEqual({ error: expect.any(String) });
    const wrong = await api.post('/auth/token', { api_key: acme.api_key, api_secret: 'nope' });
    expect(wrong.status).toBe(401);
  });

  it('leaves health and docs open, answers unknown routes with 404 { error }, and echoes X-Request-Id', async () => {
    for (const path of ['/health', '/health/live', '/health/ready', '/docs/openapi.json']) {
      expect((await api.get(path)).status).toBe(200);
    }
    const unknown = await api.get('/nowhere', { headers: { 'x-request-id': 'trace-me-123' } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-request-id')).toBe('trace-me-123');
    expect(unknown.body).toEqual({ error: 'Not found' });
  });

  describe('throttle of failed key checks', () => {
    function expectThrottled(response: ApiAnswer) {
      expect(response.status).toBe(429);
      const body = response.body as { error: string; retry_after: number };
      expect(body).toEqual({ error: `Too many failed authentication attempts; try again in ${body.retry_after} seconds`, retry_after: expect.any(Number) });
      expect(body.retry_after).toBeGreaterThan(60);
      expect(body.retry_after).toBeLessThanOrEqual(15 * 60);
      expect(response.headers.get('retry-after')).toBe(String(body.retry_after));
    }

    it('refuses a key after 10 wrong secrets, the right one too, on /auth/token and every route; other keys still work', async () => {
      const guessed = await createCompany('Guessed', '1');
      const guess = () => api.post('/auth/token', { api_key: guessed.api_key, api_secret: 'a-guess' });
      for (let i = 0; i < 10; i++) expect((await guess()).status).toBe(401);
      expectThrottled(await guess());
      expectThrottled(await api.post('/auth/token', { api_key: guessed.api_key, api_secret: guessed.api_secret }));
      expectThrottled(await api.get('/balance', { headers: basicAuthHeaders(guessed.api_key, guessed.api_secret) }));
      expect((await api.get('/balance', { headers: basicAuthHeaders(acme.api_key, acme.api_secret) })).status).toBe(200);
    });

    it('refuses an address after 50 failed checks, as a proxy in front of the gateway names it; callers elsewhere still get in', async () => {
      const from = { 'x-forwarded-for': '198.51.100.7' };
      for (let i = 0; i < 50; i++) {
        const unknownKey = `mpk_${randomBytes(16).toString('base64url')}`;
        expect((await api.get('/balance', { headers: { ...from, 'x-api-key': unknownKey, 'x-api-secret': 'x' } })).status).toBe(401);
      }
      expectThrottled(await api.get('/balance', { headers: { ...from, ...keyPairHeaders(globex) } }));
      expectThrottled(await api.post('/auth/token', { api_key: globex.api_key, api_secret: globex.api_secret }, { headers: from }));
      expect((await api.get('/balance', { headers: { 'x-forwarded-for': '198.51.100.8', ...keyPairHeaders(globex) } })).status).toBe(200);
      expect((await api.get('/balance', { headers: keyPairHeaders(globex) })).status).toBe(200);
    });
  });
});
