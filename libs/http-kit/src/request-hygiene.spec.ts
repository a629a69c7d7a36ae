import { Body, Controller, Get, HttpCode, Module, Param, Post, Query } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createLogger } from '@mp/observability';
import { IsOptional, IsString } from 'class-validator';
import { request as httpRequest } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { createHttpApp } from './create-http-app';
import { CredentialsInBody } from './request-hygiene';
import { MAX_JSON_DEPTH } from './request-text';

class EchoDto {
  @IsOptional()
  @IsString({ message: 'to must be a string' })
  to?: string;

  @IsOptional()
  @IsString({ message: 'from must be a string' })
  from?: string;
}

@Controller()
class HygieneTestController {
  @Post('echo')
  @HttpCode(200)
  echo(@Body() body: EchoDto) {
    return { fields: Object.keys(body), to: body.to ?? 'absent', from: body.from ?? 'absent' };
  }

  @Post('bulk')
  @HttpCode(200)
  bulk(@Body() body: unknown) {
    return { bytes: JSON.stringify(body).length };
  }

  @Post('token')
  @HttpCode(200)
  @CredentialsInBody()
  token(@Body() body: EchoDto) {
    return { to: body.to };
  }

  @Get('items/:id')
  item(@Param('id') id: string, @Query('q') q: string | undefined) {
    return { id, q: q ?? null };
  }
}

@Module({ controllers: [HygieneTestController] })
class HygieneTestModule {}

interface Answer {
  status: number;
  body: Record<string, unknown>;
}

/** A request over a real socket: `chunks` are written one by one without a Content-Length. */
function send(port: number, method: string, path: string, options: { body?: string; chunks?: string[]; contentType?: string } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.contentType !== '') headers['content-type'] = options.contentType ?? 'application/json';
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString('utf8') || '{}') }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? undefined : reject(error)));
    if (options.body !== undefined) req.end(options.body);
    else {
      for (const chunk of options.chunks ?? []) req.write(chunk);
      req.end();
    }
  });
}

describe('request hygiene (createHttpApp over a real socket)', () => {
  let app: NestFastifyApplication;
  let port: number;

  beforeAll(async () => {
    app = await createHttpApp(HygieneTestModule, {
      logger: createLogger({ app: 'test', level: 'silent' }),
      bodyLimitBytes: 1024,
      largeBodyRoutes: { '/bulk': 64 * 1024 },
    });
    await app.listen(0, '127.0.0.1');
    port = (app.getHttpServer().address() as AddressInfo).port;
  });
  afterAll(() => app?.close());

  it('counts a field given as null as not given', async () => {
    expect(await send(port, 'POST', '/echo', { body: '{"to":null,"from":"x"}' })).toEqual({ status: 200, body: { fields: ['from'], to: 'absent', from: 'x' } });
    // A duplicate key whose last value is null: the last one wins, as JSON.parse has it.
    expect(await send(port, 'POST', '/echo', { body: '{"to":"+44","to":null}' })).toEqual({ status: 200, body: { fields: [], to: 'absent', from: 'absent' } });
  });

  it("keeps each route's body limit however the body is framed", async () => {
    const big = JSON.stringify({ to: 'x'.repeat(2000) });
    expect((await send(port, 'POST', '/echo', { body: big })).status).toBe(413);
    const chunked = await send(port, 'POST', '/echo', { chunks: [big.slice(0, 1000), big.slice(1000)] });
    expect(chunked.status).toBe(413);
    expect(chunked.body['error']).toEqual(expect.any(String));
    expect(await send(port, 'POST', '/bulk', { chunks: [big.slice(0, 1000), big.slice(1000)] })).toEqual({ status: 200, body: { bytes: big.length } });
    const tooBigForBulk = JSON.stringify({ to: 'x'.repeat(70 * 1024) });
    expect((await send(port, 'POST', '/bulk', { chunks: [tooBigForBulk] })).status).toBe(413);
  });

  it('reads JSON only', async () => {
    const form = await send(port, 'POST', '/echo', { body: 'to=%2B44&from=x%00', contentType: 'application/x-www-form-urlencoded' });
    expect(form).toEqual({ status: 415, body: { error: expect.stringContaining('application/json') } });
    expect((await send(port, 'POST', '/echo', { body: 'hello', contentType: 'text/plain' })).status).toBe(415);
    expect(await send(port, 'POST', '/echo', { body: '', contentType: 'application/json' })).toMatchObject({ status: 200, body: { fields: [] } });
    expect(await send(port, 'POST', '/echo', { body: '{"to":', contentType: 'application/json' })).toEqual({
      status: 400,
      body: { error: 'Malformed JSON body' },
    });
  });

  it('refuses JSON nested deeper than the limit before parsing it', async () => {
    const deep = (levels: number) => `{"to":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    expect(await send(port, 'POST', '/bulk', { body: deep(100_000), contentType: 'application/json' }).then((a) => a.status)).toBe(413);
    expect(await send(port, 'POST', '/bulk', { body: deep(3000) })).toEqual({
      status: 400,
      body: { error: `JSON nested too deeply (at most ${MAX_JSON_DEPTH} levels)` },
    });
    expect((await send(port, 'POST', '/bulk', { body: deep(MAX_JSON_DEPTH - 1) })).status).toBe(200);
  });

  it('refuses the NUL character in the body, the query and the path, naming where', async () => {
    expect(await send(port, 'POST', '/echo', { body: '{"to":"a\\u0000b"}' })).toEqual({
      status: 400,
      body: { error: 'to must not contain the NUL character (U+0000)' },
    });
    expect(await send(port, 'POST', '/bulk', { body: '{"messages":[{"to":"+44"},{"to":"\\u0000"}]}' })).toEqual({
      status: 400,
      body: { error: 'messages[1].to must not contain the NUL character (U+0000)' },
    });
    expect(await send(port, 'GET', '/items/1?q=%00', { contentType: '' })).toEqual({
      status: 400,
      body: { error: 'q must not contain the NUL character (U+0000)' },
    });
    expect(await send(port, 'GET', '/items/a%00b', { contentType: '' })).toEqual({
      status: 400,
      body: { error: 'id must not contain the NUL character (U+0000)' },
    });
    expect(await send(port, 'GET', '/items/a?q=%01%C2%A0', { contentType: '' })).toEqual({ status: 200, body: { id: 'a', q: '\u0001\u00a0' } });
  });

  it('refuses a lone surrogate in the body, naming where, and lets a whole pair through, escaped or not', async () => {
    expect(await send(port, 'POST', '/echo', { body: '{"to":"x\\udfffy"}' })).toEqual({
      status: 400,
      body: { error: 'to must be valid Unicode text: it holds half of a surrogate pair (an escape \\ud800 to \\udfff without its other half)' },
    });
    expect((await send(port, 'POST', '/bulk', { body: '{"messages":[{"to":"\\uD83D"}]}' })).body).toMatchObject({
      error: expect.stringMatching(/^messages\[0\]\.to must be valid Unicode/),
    });
    expect((await send(port, 'POST', '/echo', { body: '{"to":"\\ud83d\\ude00 😀"}' })).status).toBe(200);
    expect(await send(port, 'POST', '/token', { body: '{"to":"\\udfff"}' })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  it("routes an id of any length to its handler, rather than answering 414 in the router's own shape", async () => {
    const id = 'x'.repeat(5000);
    expect(await send(port, 'GET', `/items/${id}`, { contentType: '' })).toEqual({ status: 200, body: { id, q: null } });
  });

  it("answers what Fastify and Node refuse before routing in the API's shape", async () => {
    expect(await send(port, 'GET', '/items/%ff%fe', { contentType: '' })).toEqual({
      status: 400,
      body: { error: 'Malformed URL: the path is not valid percent-encoded UTF-8' },
    });
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(`GET /items/1 HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`));
      let text = '';
      socket.on('data', (part: Buffer) => (text += part.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => undefined);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 431 [^]*\r\n\r\n\{"error":"Request headers are too large \(at most 16 KiB\)"\}$/);
  });

  it('answers 401, not 400, for a credential body with text no credential holds', async () => {
    expect(await send(port, 'POST', '/token', { body: '{"to":"\\u0000"}' })).toEqual({ status: 401, body: { error: 'Unauthorized' } });
  });

  it('refuses prototype keys', async () => {
    expect((await send(port, 'POST', '/bulk', { body: '{"__proto__":{"x":1}}' })).status).toBe(400);
    expect((await send(port, 'POST', '/bulk', { body: '{"a":{"constructor":{"prototype":{"x":1}}}}' })).status).toBe(400);
  });
});
