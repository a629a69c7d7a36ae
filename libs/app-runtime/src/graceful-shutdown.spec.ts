import { createHttpApp } from '@mp/http-kit';
import { Injectable, Module, type BeforeApplicationShutdown, type OnApplicationShutdown } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { Writable } from 'node:stream';
import { shutDownGracefully } from './graceful-shutdown';

@Injectable()
class Flush implements BeforeApplicationShutdown {
  hang = false;
  done = false;
  async beforeApplicationShutdown(): Promise<void> {
    if (this.hang) await new Promise(() => undefined);
    this.done = true;
  }
}

@Injectable()
class Pool implements OnApplicationShutdown {
  closedAfterFlush: boolean | undefined;
  constructor(private readonly flush: Flush) {}
  onApplicationShutdown(): void {
    this.closedAfterFlush = this.flush.done;
  }
}

@Module({ providers: [Flush, Pool] })
class AppModule {}

/** Log lines as objects, and an exit that records its code instead of exiting. */
function harness() {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino({ level: 'info' }, stream);
  let exited: (code: number) => void = () => undefined;
  const exitCode = new Promise<number>((resolve) => (exited = resolve));
  return { lines, logger, exitCode, exitProcess: (code: number) => exited(code) };
}

describe('shutDownGracefully', () => {
  let app: NestFastifyApplication;
  let listeners: { SIGINT: NodeJS.SignalsListener[]; SIGTERM: NodeJS.SignalsListener[] };

  beforeEach(() => {
    listeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
  });
  afterEach(() => {
    jest.restoreAllMocks();
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const listener of process.listeners(signal)) if (!listeners[signal].includes(listener)) process.removeListener(signal, listener);
    }
  });

  async function start(hang: boolean, { logger, exitProcess }: ReturnType<typeof harness>, timeoutMs: number) {
    app = await createHttpApp(AppModule, { logger });
    app.get(Flush).hang = hang;
    shutDownGracefully(app, logger, { drainMs: 0, timeoutMs, exitProcess });
    await app.listen(0, '127.0.0.1');
  }

  it('runs every flush before any connection closes, then exits 0', async () => {
    const test = harness();
    const { lines, exitCode } = test;
    await start(false, test, 10_000);
    process.emit('SIGINT', 'SIGINT');
    expect(await exitCode).toBe(0);
    expect(app.get(Pool).closedAfterFlush).toBe(true);
    expect(lines.map((line) => line['msg'])).toEqual(expect.arrayContaining(['shutting down', 'shut down']));
  });

  it('exits 1 past its deadline, naming the hook that hung', async () => {
    const test = harness();
    const { lines, exitCode } = test;
    await start(true, test, 300);
    process.emit('SIGINT', 'SIGINT');
    expect(await exitCode).toBe(1);
    expect(lines.find((line) => line['msg'] === 'shutdown did not finish in time: exiting anyway')).toMatchObject({
      step: 'shutdown hooks',
      hung: ['Flush.beforeApplicationShutdown'],
    });
    expect(app.get(Pool).closedAfterFlush).toBeUndefined();
  });
});
