import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ResolveAll } from './guarded-lookup';
import { postWebhook, WEBHOOK_USER_AGENT } from './post-webhook';
import { signWebhook, verifyWebhook } from './signing';

// Real HTTP servers on 127.0.0.1; no database or Redis is involved.

interface ReceivedRequest {
  method?: string;
  url?: string;
  headers: IncomingHttpHeaders;
  body: string;
}

interface TestServer {
  port: number;
  url: string;
  requests: ReceivedRequest[];
  connections: number;
  close(): Promise<void>;
}

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

async function startServer(handler: Handler): Promise<TestServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      state.requests.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      handler(request, response);
    });
  });
  server.on('connection', () => (state.connections += 1));
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  const state: TestServer = {
    port,
    url: `http://127.0.0.1:${port}`,
    requests: [],
    connections: 0,
    close: () =>
      new Promise((closed) => {
        server.closeAllConnections();
        server.close(() => closed());
      }),
  };
  return state;
}

const reply =
  (status: number, body = '', headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };

/** A resolver that answers 127.0.0.1 for any name, as a customer's DNS could. */
const TO_LOOPBACK: ResolveAll = (_hostname, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
const LOOPBACK_OK = { allowLoopback: true, allowPrivate: false };
const LOOPBACK_REFUSED = { allowLoopback: false, allowPrivate: false };
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

function signedRequest(url: string, body = JSON.stringify({ type: 'message.delivered', data: { message_id: 'm1', to: '+33612345678' } })) {
  const headers = signWebhook({ secret: SECRET, id: 'evt_1', timestamp: new Date(), body });
  return { url, body, headers: { ...headers } };
}

const asStrings = (headers: IncomingHttpHeaders): Record<string, string | undefined> =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : value]));

describe('postWebhook against real servers', () => {
  const servers: TestServer[] = [];
  const serve = async (handler: Handler) => {
    const server = await startServer(handler);
    servers.push(server);
    return server;
  };
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('delivers a signed body the receiver can verify, and reports 200 as ok', async () => {
    const server = await serve(reply(200, '{"received":true}', { 'content-type': 'application/json' }));
    const request = signedRequest(`${server.url}/hooks/sms?tenant=7`);

    const result = await postWebhook({ ...request, policy: LOOPBACK_OK });

    expect(result).toEqual({ ok: true, status: 200, error: null, responseSnippet: '{"received":true}', durationMs: expect.any(Number), permanent: false });
    expect(server.requests).toHaveLength(1);
    const [received] = server.requests;
    expect(received).toMatchObject({ method: 'POST', url: '/hooks/sms?tenant=7', body: request.body });
    expect(received.headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'content-length': String(Buffer.byteLength(request.body)),
      ...request.headers,
    });
    expect(verifyWebhook({ secrets: [SECRET], headers: asStrings(received.headers), body: received.body })).toBe(true);
  });

  it('keeps only the first 512 bytes of the response, and sends non-ASCII bodies byte-exact', async () => {
    const server = await serve(reply(204, ''));
    const body = JSON.stringify({ text: 'héllo ✓ 你好' });
    expect(await postWebhook({ ...signedRequest(server.url, body), policy: LOOPBACK_OK })).toMatchObject({ ok: true, status: 204, responseSnippet: '' });
    expect(server.requests[0].body).toBe(body);
    expect(verifyWebhook({ secrets: [SECRET], headers: asStrings(server.requests[0].headers), body: server.requests[0].body })).toBe(true);

    const chatty = await serve(reply(200, 'x'.repeat(100_000)));
    const result = await postWebhook({ ...signedRequest(chatty.url), policy: LOOPBACK_OK });
    expect(result).toMatchObject({ ok: true, status: 200 });
    expect(result.responseSnippet).toBe('x'.repeat(512));
  });

  it('keeps its own content type, user agent and length whatever the caller passes', async () => {
    const server = await serve(reply(200));
    const request = signedRequest(server.url);
    const headers = { ...request.headers, 'Content-Type': 'text/plain', 'User-Agent': 'spoof', 'Content-Length': '1', 'x-extra': 'kept' };
    expect(await postWebhook({ ...request, headers, policy: LOOPBACK_OK })).toMatchObject({ ok: true });
    expect(server.requests[0].headers).toMatchObject({
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'content-length': String(Buffer.byteLength(request.body)),
      'x-extra': 'kept',
    });
  });

  it('reports a 500 as a failed attempt with its status and body', async () => {
    const server = await serve(reply(500, 'database on fire'));
    const result = await postWebhook({ ...signedRequest(server.url), policy: LOOPBACK_OK });
    expect(result).toMatchObject({ ok: false, status: 500, error: 'HTTP 500', responseSnippet: 'database on fire', permanent: false });
  });

  it('does not follow a redirect', async () => {
    const target = await serve(reply(200));
    const redirecting = await serve(reply(302, '', { location: `${target.url}/elsewhere` }));
    const result = await postWebhook({ ...signedRequest(redirecting.url), policy: LOOPBACK_OK });
    expect(result).toMatchObject({ ok: false, status: 302, error: 'redirect not followed (302)' });
    expect(redirecting.requests).toHaveLength(1);
    expect(target.requests).toHaveLength(0);
    expect(target.connections).toBe(0);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const server = await serve(() => undefined);
    const result = await postWebhook({ ...signedRequest(server.url), policy: LOOPBACK_OK, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: null, error: 'timeout', responseSnippet: null });
    expect(result.durationMs).toBeGreaterThanOrEqual(290);
    expect(result.durationMs).toBeLessThan(2000);
    expect(server.requests).toHaveLength(1);
  });

  it('counts the response body in the timeout', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial');
    });
    const result = await postWebhook({ ...signedRequest(server.url), policy: LOOPBACK_OK, timeoutMs: 300 });
    expect(result).toMatchObject({ ok: false, status: 200, error: 'timeout', responseSnippet: 'partial' });
    expect(result.durationMs).toBeLessThan(2000);
  });

  it('reports a response cut short', async () => {
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-length': '1000' });
      response.write('partial', () => response.socket?.destroy());
    });
    const result = await postWebhook({ ...signedRequest(server.url), policy: LOOPBACK_OK });
    expect(result).toMatchObject({ ok: false, status: 200, error: 'connection error: the response was cut short' });
  });

  it('refuses loopback when the policy does not allow it, sending nothing', async () => {
    const server = await serve(reply(200));
    const result = await postWebhook({ ...signedRequest(server.url), policy: LOOPBACK_REFUSED });
    expect(result).toMatchObject({ ok: false, status: null, error: 'forbidden address: 127.0.0.1 is a loopback address', permanent: true });
    expect(server.connections).toBe(0);
  });

  it('refuses a hostname that resolves to loopback, sending nothing', async () => {
    const server = await serve(reply(200));
    const result = await postWebhook({ ...signedRequest(`http://hooks.customer.test:${server.port}/`), policy: LOOPBACK_REFUSED, resolve: TO_LOOPBACK });
    expect(result).toMatchObject({ ok: false, status: null, permanent: true });
    expect(result.error).toBe('forbidden address: hooks.customer.test resolves to 127.0.0.1, which is a loopback address');
    expect(server.connections).toBe(0);
  });

  it('connects to a hostname that resolves to loopback when the policy allows it', async () => {
    const server = await serve(reply(200));
    const result = await postWebhook({ ...signedRequest(`http://hooks.customer.test:${server.port}/`), policy: LOOPBACK_OK, resolve: TO_LOOPBACK });
    expect(result).toMatchObject({ ok: true, status: 200, permanent: false });
    expect(server.requests).toHaveLength(1);
  });

  it('reports connection failures without throwing', async () => {
    const closed = await startServer(reply(200));
    await closed.close();
    const refused = await postWebhook({ ...signedRequest(closed.url), policy: LOOPBACK_OK });
    expect(refused).toMatchObject({ ok: false, status: null, error: `connection error: connect ECONNREFUSED 127.0.0.1:${closed.port}`, permanent: false });

    const plain = await serve(reply(200));
    const tls = await postWebhook({ ...signedRequest(`https://127.0.0.1:${plain.port}/`), policy: LOOPBACK_OK, timeoutMs: 2000 });
    expect(tls).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^connection error: /) });

    const unknown = await postWebhook({ ...signedRequest('http://no-such-host.invalid/'), policy: LOOPBACK_OK, timeoutMs: 5000 });
    expect(unknown).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^(connection error: .*ENOTFOUND|timeout)/) });
  });
});
