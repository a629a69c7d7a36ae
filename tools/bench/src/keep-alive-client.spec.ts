import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KeepAliveClient, RequestFailed } from './keep-alive-client';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  socket: number;
}

/** A server that records each request (and the connection it came on) and answers with `answer`. */
async function server(answer: (seen: Seen, res: ServerResponse) => void): Promise<{ server: Server; origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const sockets = new Map<unknown, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, sockets.size);
      const one = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, socket: sockets.get(req.socket) as number };
      seen.push(one);
      answer(one, res);
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const json = (status: number) => (_: Seen, res: ServerResponse) => {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ok: status < 300, padding: 'x'.repeat(100) }));
};

async function closing(s: Server): Promise<void> {
  s.closeAllConnections();
  await new Promise((done) => s.close(done));
}

describe('KeepAliveClient', () => {
  it('POSTs each body with the headers, and answers every request with its status over at most `connections` connections', async () => {
    const s = await server((one, res) => json(one.body.includes('"n":3') ? 429 : 200)(one, res));
    const client = new KeepAliveClient(s.origin, '/otp/send', { 'content-type': 'application/json', 'x-api-key': 'mpk_1' }, 2, 5_000);
    try {
      const statuses = await Promise.all(Array.from({ length: 20 }, (_, n) => client.post(JSON.stringify({ n, text: 'é' }))));
      expect(statuses).toEqual(Array.from({ length: 20 }, (_, n) => (n === 3 ? 429 : 200)));
      expect(s.seen.map((one) => JSON.parse(one.body).n).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, n) => n));
      expect(s.seen.every((one) => one.method === 'POST' && one.url === '/otp/send' && one.headers['x-api-key'] === 'mpk_1')).toBe(true);
      expect(s.seen.every((one) => JSON.parse(one.body).text === 'é')).toBe(true);
      expect(new Set(s.seen.map((one) => one.socket)).size).toBe(2);
    } finally {
      client.destroy();
      await closing(s.server);
    }
  });

  it('reads chunked answers, and answers sent in several writes', async () => {
    const s = await server((_, res) => {
      res.statusCode = 201;
      res.write('{"part":');
      setTimeout(() => res.end('1}'), 20);
    });
    const client = new KeepAliveClient(s.origin, '/x', {}, 1, 5_000);
    try {
      expect(await client.post('{}')).toBe(201);
      expect(await client.post('{}')).toBe(201);
      expect(new Set(s.seen.map((one) => one.socket)).size).toBe(1);
    } finally {
      client.destroy();
      await closing(s.server);
    }
  });

  it('opens a new connection when the server closes one after its answer', async () => {
    const s = await server((one, res) => {
      res.setHeader('connection', 'close');
      json(200)(one, res);
    });
    const client = new KeepAliveClient(s.origin, '/x', {}, 1, 5_000);
    try {
      const statuses = await Promise.all([client.post('{}'), client.post('{}'), client.post('{}')]);
      expect(statuses).toEqual([200, 200, 200]);
      expect(new Set(s.seen.map((one) => one.socket)).size).toBe(3);
    } finally {
      client.destroy();
      await closing(s.server);
    }
  });

  it('fails a request without an answer in time as a timeout, and one that finds no server as an error', async () => {
    const s = await server(() => undefined);
    const client = new KeepAliveClient(s.origin, '/x', {}, 1, 150);
    const nowhere = new KeepAliveClient('http://127.0.0.1:1', '/x', {}, 1, 5_000);
    try {
      await expect(client.post('{}')).rejects.toEqual(expect.objectContaining({ reason: 'timeout' }));
      const refused = await nowhere.post('{}').catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(RequestFailed);
      expect((refused as RequestFailed).reason).toBe('error');
    } finally {
      client.destroy();
      nowhere.destroy();
      await closing(s.server);
    }
  });

  it('fails what is in flight or waiting when destroyed', async () => {
    const s = await server(() => undefined);
    const client = new KeepAliveClient(s.origin, '/x', {}, 1, 5_000);
    try {
      const inFlight = client.post('{}').catch((error: unknown) => error);
      const waiting = client.post('{}').catch((error: unknown) => error);
      await new Promise((r) => setTimeout(r, 50));
      client.destroy();
      expect(await inFlight).toBeInstanceOf(RequestFailed);
      expect(await waiting).toBeInstanceOf(RequestFailed);
    } finally {
      await closing(s.server);
    }
  });
});
