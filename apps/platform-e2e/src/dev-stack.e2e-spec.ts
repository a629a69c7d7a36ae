// `npm start` on a fresh machine: no DATABASE_URL, so the dev-stack runs an embedded PostgreSQL in
// an empty data directory, migrates it, starts the apps, serves the web console where it says, and
// takes it all down again on Ctrl-C.
import { startStack } from '@mp/testing';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

jest.setTimeout(120_000);

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (result: boolean): void => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.connect(port, '127.0.0.1', () => done(true));
  });
}

async function eventually(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('dev-stack (npm start)', () => {
  let dataDir: string;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'mp-dev-stack-e2e-'));
  });

  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('runs on an embedded PostgreSQL when DATABASE_URL is unset and stops everything on SIGINT', async () => {
    const stack = await startStack({ env: { DATABASE_URL: '', MP_DATA_DIR: dataDir } });
    let databasePort = 0;
    try {
      const health = await fetch(`${stack.gatewayUrl}/health`);
      expect(health.status).toBe(200);

      const recorded = JSON.parse(readFileSync(join(dataDir, 'stack.json'), 'utf8')) as { databaseUrl: string; redisUrl: string };
      expect(recorded.redisUrl).toBe(process.env['REDIS_URL']);
      const databaseUrl = new URL(recorded.databaseUrl);
      expect(databaseUrl.hostname).toBe('127.0.0.1');
      expect(databaseUrl.pathname).toBe('/messaging');
      databasePort = Number(databaseUrl.port);
      expect(databasePort).toBeGreaterThanOrEqual(54_320);

      const client = new Client({ connectionString: recorded.databaseUrl });
      await client.connect();
      try {
        const migrations = await client.query<{ name: string }>('SELECT name FROM schema_migrations');
        expect(migrations.rowCount).toBeGreaterThan(0);
      } finally {
        await client.end();
      }
      // The dev-stack's own friendly line follows its own poll of /health.
      await eventually(() => stack.logs().includes(`ready: the gateway is at ${stack.gatewayUrl}`));
      // The web console, where the printed line says it is.
      await eventually(() => stack.logs().includes(`the console is at ${stack.gatewayUrl}/dashboard/`));
      const consolePage = await fetch(`${stack.gatewayUrl}/dashboard/`);
      expect(consolePage.status).toBe(200);
      expect(consolePage.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await consolePage.text()).toMatch(/<script type="module"[^>]* src="\/dashboard\/assets\/[^"]+\.js"/);
    } finally {
      await stack.stop();
    }

    expect(stack.logs()).toMatch(/\[stack\] +stopped postgres/);
    expect(await acceptsConnections(databasePort)).toBe(false);
    expect(await acceptsConnections(Number(new URL(stack.gatewayUrl).port))).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'PG_VERSION'))).toBe(true);
  });
});
