// The simulator over real sockets: a client sending as the otp app does, and a real HTTP server
// receiving its status webhooks as the gateway does.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { type RunningWhatsappSimulator, startWhatsappSimulator, type WhatsappSimulatorOptions } from './simulator';

const TOKEN = 'test-access-token';
const APP_SECRET = 'test-app-secret';

interface Delivery {
  raw: string;
  headers: IncomingHttpHeaders;
}

interface Receiver {
  url: string;
  deliveries: Delivery[];
  /** The status to answer the n-th (0-based) delivery with; 200 by default. */
  answer: (index: number) => number;
}

const running: RunningWhatsappSimulator[] = [];
const servers: Server[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((item) => item.stop()));
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function receiver(answer: (index: number) => number = () => 200): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const status = answer(deliveries.length);
      deliveries.push({ raw: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(status).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/whatsapp`, deliveries, answer };
}

async function simulator(options: Partial<WhatsappSimulatorOptions> = {}): Promise<RunningWhatsappSimulator> {
  const started = await startWhatsappSimulator({ port: 0, accessToken: TOKEN, appSecret: APP_SECRET, statusDelayMs: 10, retryDelayMs: 20, ...options });
  running.push(started);
  return started;
}

function templateMessage(to: string, code: string): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name: 'otp_code',
      language: { code: 'en' },
      components: [
        { type: 'body', parameters: [{ type: 'text', text: code }] },
        { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: code }] },
      ],
    },
  };
}

function post(wa: RunningWhatsappSimulator, body: unknown, token = TOKEN): Promise<Response> {
  return fetch(`http://${wa.host}:${wa.port}/v21.0/106540352242922/messages`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function json<T>(wa: RunningWhatsappSimulator, path: string): Promise<T> {
  const response = await fetch(`http://${wa.host}:${wa.port}${path}`);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

function verifies(delivery: Delivery): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', APP_SECRET).update(delivery.raw).digest('hex')}`);
  const given = Buffer.from(String(delivery.headers['x-hub-signature-256']));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** The status object of a delivery. */
function statusOf(delivery: Delivery): Record<string, unknown> {
  const body = JSON.parse(delivery.raw) as { entry: { changes: { value: { statuses: Record<string, unknown>[] } }[] }[] };
  return body.entry[0].changes[0].value.statuses[0];
}

async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('WhatsApp simulator', () => {
  it('accepts a template message, shows it on the handset and posts signed sent then delivered statuses', async () => {
    const hook = await receiver();
    const wa = await simulator({ webhookUrl: hook.url });
    const response = await post(wa, templateMessage('447700900123', '482913'));
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { messages: { id: string }[] };
    expect(answer).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '447700900123', wa_id: '447700900123' }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]+$/) }],
    });
    const id = answer.messages[0].id;

    expect(await json<unknown[]>(wa, '/messages?to=+447700900123')).toEqual([
      {
        message_id: id,
        to: '+447700900123',
        text: '482913 is your verification code. For your security, do not share this code.',
        template: 'otp_code',
        language: 'en',
        received_at: expect.any(String),
      },
    ]);
    expect(await json<unknown[]>(wa, '/messages?to=%2B447700900999')).toEqual([]);

    await eventually(() => hook.deliveries.length >= 2);
    expect(hook.deliveries.map(statusOf)).toEqual([
      { id, status: 'sent', timestamp: expect.stringMatching(/^\d{10}$/), recipient_id: '447700900123' },
      { id, status: 'delivered', timestamp: expect.stringMatching(/^\d{10}$/), recipient_id: '447700900123' },
    ]);
    for (const delivery of hook.deliveries) {
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(verifies(delivery)).toBe(true);
      expect(JSON.parse(delivery.raw)).toMatchObject({
        object: 'whatsapp_business_account',
        entry: [{ changes: [{ field: 'messages', value: { metadata: { phone_number_id: '106540352242922' } } }] }],
      });
    }
  });

  it('answers 401 with the OAuth error to a wrong or missing token', async () => {
    const wa = await simulator();
    const wrong = await post(wa, templateMessage('447700900123', '1234'), 'not-the-token');
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({
      error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: expect.any(String) },
    });
    const missing = await fetch(`http://${wa.host}:${wa.port}/v21.0/1/messages`, { method: 'POST', body: '{}' });
    expect(missing.status).toBe(401);
    expect(wa.messages()).toEqual([]);
  });

  it('answers 400 naming what is wrong with the body', async () => {
    const wa = await simulator();
    const notJson = await post(wa, '{"to":');
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ error: { message: '(#100) the request body must be JSON', type: 'OAuthException', code: 100 } });
    const shortNumber = await post(wa, templateMessage('1234', '1234'));
    expect(shortNumber.status).toBe(400);
    expect(((await shortNumber.json()) as { error: { message: string } }).error.message).toMatch(/to must be the phone number as 8 to 15 digits/);
    expect(wa.messages()).toEqual([]);
  });

  it('forgets the messages on DELETE /messages, and answers /health', async () => {
    const wa = await simulator();
    expect((await post(wa, templateMessage('447700900123', '1111'))).status).toBe(200);
    expect((await post(wa, templateMessage('33612345678', '2222'))).status).toBe(200);
    expect(await json<unknown[]>(wa, '/messages')).toHaveLength(2);
    const cleared = await fetch(`http://${wa.host}:${wa.port}/messages`, { method: 'DELETE' });
    expect(cleared.status).toBe(204);
    expect(await json<unknown[]>(wa, '/messages')).toEqual([]);
    expect(await json<unknown>(wa, '/health')).toEqual({ status: 'ok' });
  });

  it('posts a status again while the receiver answers 500', async () => {
    const hook = await receiver((index) => (index < 2 ? 500 : 200));
    const wa = await simulator({ webhookUrl: hook.url });
    expect((await post(wa, templateMessage('447700900123', '1234'))).status).toBe(200);
    await eventually(() => hook.deliveries.length >= 4);
    expect(hook.deliveries.map((delivery) => statusOf(delivery)['status'])).toEqual(['sent', 'sent', 'sent', 'delivered']);
    expect(hook.deliveries.every(verifies)).toBe(true);
  });

  it('posts sent then failed with error 131026 for the failure fraction, and gives up on an unreachable receiver with a warning', async () => {
    const hook = await receiver();
    const wa = await simulator({ webhookUrl: hook.url, failureRate: 1 });
    expect((await post(wa, templateMessage('447700900123', '1234'))).status).toBe(200);
    await eventually(() => hook.deliveries.length >= 2);
    expect(hook.deliveries.map(statusOf)).toEqual([
      expect.objectContaining({ status: 'sent' }),
      expect.objectContaining({ status: 'failed', errors: [{ code: 131026, title: 'Message undeliverable' }] }),
    ]);

    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
    const unreachable = await simulator({ webhookUrl: 'http://127.0.0.1:1/webhooks/whatsapp', webhookAttempts: 2, retryDelayMs: 1, logger });
    expect((await post(unreachable, templateMessage('447700900123', '1234'))).status).toBe(200);
    await eventually(() => warnings.length >= 2);
    expect(warnings.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ event: 'webhook_given_up', status: 'sent', attempts: 2 }),
      expect.objectContaining({ event: 'webhook_given_up', status: 'delivered', attempts: 2 }),
    ]);
    expect(await json<unknown>(unreachable, '/health')).toEqual({ status: 'ok' });
  });
});
