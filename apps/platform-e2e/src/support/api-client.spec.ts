import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ApiClient, basicAuthHeaders, bearerPairHeaders, jsonText } from './api-client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A stand-in gateway: records each request, answers 200 JSON, or text at /text and nothing at /empty. */
describe('ApiClient', () => {
  let server: Server;
  let url: string;
  const seen: Seen[] = [];
  const company = { api_key: 'mpk_test', api_secret: 's3cret' };
  const last = () => seen[seen.length - 1];

  beforeAll(async () => {
    server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
        if (request.url === '/empty') return void response.writeHead(204).end();
        if (request.url === '/text') return void response.writeHead(200, { 'content-type': 'text/plain' }).end('1158201444');
        response
          .writeHead(201, { 'content-type': 'application/json; charset=utf-8', 'retry-after': '7' })
          .end(JSON.stringify({ got: body === '' ? null : JSON.parse(body) }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('posts JSON as the company and answers { status, body }, its headers and text alongside', async () => {
    const answer = await new ApiClient(
      () => url,
      () => company,
    ).post('/sms/send', { to: '+1' });
    expect(answer).toEqual({ status: 201, body: { got: { to: '+1' } } });
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.text).toBe('{"got":{"to":"+1"}}');
    expect(last()).toMatchObject({
      method: 'POST',
      url: '/sms/send',
      headers: { 'x-api-key': 'mpk_test', 'x-api-secret': 's3cret', 'content-type': 'application/json' },
    });
  });

  it('sends no content type without a body, and other headers over the credentials', async () => {
    const api = new ApiClient(
      () => url,
      () => company,
    );
    await api.delete('/sms/1', { headers: { 'x-api-secret': 'other', 'idempotency-key': 'k' } });
    expect(last()).toMatchObject({ method: 'DELETE', headers: { 'x-api-key': 'mpk_test', 'x-api-secret': 'other', 'idempotency-key': 'k' } });
    expect(last().headers['content-type']).toBeUndefined();
    await api.as({ api_key: 'mpk_other', api_secret: 'x' }).get('/balance');
    expect(last().headers['x-api-key']).toBe('mpk_other');
    await api.anonymous().get('/balance', { headers: basicAuthHeaders('mpk_a', 'b') });
    expect(last().headers).toMatchObject({ authorization: `Basic ${Buffer.from('mpk_a:b').toString('base64')}` });
    expect(last().headers['x-api-key']).toBeUndefined();
  });

  it('sends a JsonText exactly as written', async () => {
    await new ApiClient(() => url).post('/otp/verify', jsonText('{"code":null,"code":"\\u0000"}'));
    expect(last().body).toBe('{"code":null,"code":"\\u0000"}');
  });

  it('answers a text body as text and an empty one as undefined', async () => {
    const api = new ApiClient(() => url);
    expect(await api.get('/text')).toEqual({ status: 200, body: '1158201444' });
    expect(await api.get('/empty')).toEqual({ status: 204, body: undefined });
  });

  it('builds the bearer pair header as the gateway reads it', () => {
    expect(bearerPairHeaders('mpk_a', 'b')).toEqual({ authorization: `Bearer ${Buffer.from('mpk_a:b').toString('base64')}` });
  });
});
