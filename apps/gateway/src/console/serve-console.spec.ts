import Fastify, { type FastifyInstance } from 'fastify';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveConsole } from './serve-console';

const INDEX_HTML = '<!doctype html><title>Console</title><div id="root"></div>';

async function gatewayWith(dir: string): Promise<FastifyInstance> {
  const fastify = Fastify();
  // As the dashboard API's routes and the gateway's own 404 answer.
  fastify.get('/dashboard/api/session', () => ({ user: 'someone' }));
  fastify.get('/dashboard/api/keys/:id', () => ({ key: true }));
  fastify.setNotFoundHandler((_request, reply) => reply.status(404).send({ error: 'Not found' }));
  await serveConsole(fastify, dir);
  await fastify.ready();
  return fastify;
}

describe('serveConsole', () => {
  let dir: string;
  let fastify: FastifyInstance;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), INDEX_HTML);
    writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    writeFileSync(join(dir, 'assets', 'index-Ab12Cd.js'), 'console.log(1)');
    fastify = await gatewayWith(dir);
  });

  afterAll(async () => {
    await fastify.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['/dashboard/', '/dashboard/keys', '/dashboard/keys?status=all', '/dashboard/invite/tok_abc-123', '/dashboard/some/deep/page'])(
    'answers index.html, revalidated on every visit, for %s',
    async (url) => {
      const answer = await fastify.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(200);
      expect(answer.body).toBe(INDEX_HTML);
      expect(answer.headers['content-type']).toMatch(/^text\/html/);
      expect(answer.headers['cache-control']).toBe('no-cache');
      expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(answer.headers['referrer-policy']).toBe('no-referrer');
    },
  );

  it('lets browsers keep hashed assets for a year', async () => {
    const answer = await fastify.inject({ method: 'GET', url: '/dashboard/assets/index-Ab12Cd.js' });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('console.log(1)');
    expect(answer.headers['content-type']).toMatch(/javascript/);
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404, not the page, for an asset that does not exist', async () => {
    const answer = await fastify.inject({ method: 'GET', url: '/dashboard/assets/index-Old99.js' });
    expect(answer.statusCode).toBe(404);
    expect(answer.json()).toEqual({ error: 'Not found' });
  });

  it('serves the files beside index.html, revalidated', async () => {
    const answer = await fastify.inject({ method: 'GET', url: '/dashboard/favicon.svg' });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(answer.headers['cache-control']).toBe('no-cache');
  });

  it('never shadows the dashboard API', async () => {
    expect((await fastify.inject({ method: 'GET', url: '/dashboard/api/session' })).json()).toEqual({ user: 'someone' });
    expect((await fastify.inject({ method: 'GET', url: '/dashboard/api/keys/k1' })).json()).toEqual({ key: true });
    for (const url of ['/dashboard/api', '/dashboard/api/', '/dashboard/api/nothing-here', '/dashboard/api/keys/k1/more']) {
      const answer = await fastify.inject({ method: 'GET', url });
      expect({ url, status: answer.statusCode, body: answer.json() as unknown }).toEqual({ url, status: 404, body: { error: 'Not found' } });
    }
  });

  it('sends /dashboard to /dashboard/, with its query', async () => {
    const answer = await fastify.inject({ method: 'GET', url: '/dashboard?status=all' });
    expect(answer.statusCode).toBe(301);
    expect(answer.headers['location']).toBe('/dashboard/?status=all');
  });

  it('says how to build the console when it is not built, and still leaves the API alone', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'console-unbuilt-'));
    const unbuilt = await gatewayWith(empty);
    try {
      const page = await unbuilt.inject({ method: 'GET', url: '/dashboard/keys' });
      expect(page.statusCode).toBe(503);
      expect((page.json() as { error: string }).error).toMatch(/npm run build/);
      expect((await unbuilt.inject({ method: 'GET', url: '/dashboard/api/nothing' })).statusCode).toBe(404);
    } finally {
      await unbuilt.close();
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
