import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LoadRequest } from './http-load';
import { answeredBefore, pacedLoad } from './paced-load';

interface Seen {
  method: string;
  url: string;
  key: string | undefined;
  body: unknown;
}

/** A server that answers every other request 429, and records what it was sent. */
async function recordingServer(): Promise<{ server: Server; url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined, body: JSON.parse(text) });
      res.statusCode = seen.length % 2 === 0 ? 429 : 200;
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

const request = (): LoadRequest => {
  let n = 0;
  return { company: { api_key: 'mpk_test', api_secret: 'secret' }, path: '/otp/send', body: () => ({ n: n++ }) };
};

describe('pacedLoad', () => {
  it('sends rate × duration requests, each its own body, and tallies the answers by status', async () => {
    const { server, url, seen } = await recordingServer();
    try {
      const result = await pacedLoad(url, request(), 4, 0.5, 100, { stopped: false });
      expect(result.requests.total).toBe(50);
      expect(result['2xx']).toBe(25);
      expect(result.non2xx).toBe(25);
      expect(result.statusCodeStats).toEqual({ '200': { count: 25 }, '429': { count: 25 } });
      expect(result.errors).toBe(0);
      expect(result.latency.p50).toBeGreaterThan(0);
      expect(seen).toHaveLength(50);
      expect(seen.every((s) => s.method === 'POST' && s.url === '/otp/send' && s.key === 'mpk_test')).toBe(true);
      expect(seen.map((s) => (s.body as { n: number }).n).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
      // Each 2xx answer keeps when its request was due (every 10 ms from the start) and its latency.
      const times = result.answerTimes;
      expect(times?.latencyMs).toHaveLength(25);
      expect(times?.dueMs.every((due) => due >= 0 && due < 500 && Math.abs(due - Math.round(due / 10) * 10) < 0.001)).toBe(true);
      expect(Math.abs((times?.startedAtEpochMs ?? 0) - Date.now())).toBeLessThan(60_000);
    } finally {
      server.close();
    }
  });

  it('stops sending when told to, and resolves once what was sent is answered', async () => {
    const { server, url, seen } = await recordingServer();
    try {
      const stop = { stopped: false };
      setTimeout(() => (stop.stopped = true), 100);
      const result = await pacedLoad(url, request(), 4, 10, 100, stop);
      expect(result.requests.total).toBeLessThan(1_000);
      expect(result['2xx'] + result.non2xx).toBe(result.requests.total);
      expect(seen).toHaveLength(result.requests.total);
    } finally {
      server.close();
    }
  });

  it('counts requests that find no server as errors', async () => {
    const { server, url } = await recordingServer();
    await new Promise((closed) => server.close(closed));
    const result = await pacedLoad(url, request(), 2, 0.1, 100, { stopped: false });
    expect(result.requests.total).toBe(10);
    expect(result.errors).toBe(10);
    expect(result['2xx']).toBe(0);
  });

  it('measures the part of a load before a moment: the answers to the requests due before it', () => {
    const times = { startedAtEpochMs: 1_000_000, dueMs: [0, 10, 20, 30, 40], latencyMs: [5, 50, 7, 9, 400] };
    expect(answeredBefore(times, 1_000_025)).toEqual({ accepted: 3, latency: { p50: 7, p99: 50, p99_9: 50, max: 50, mean: 20.7 } });
    expect(answeredBefore(times, 1_000_000).accepted).toBe(0);
    expect(answeredBefore(times, 1_000_041).latency.max).toBe(400);
  });
});
