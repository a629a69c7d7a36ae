import { randomUUID } from 'node:crypto';
import type { GatewayEnv } from '../gateway.env';
import { IdempotencyStore } from './idempotency.store';

// Against the run's Redis: what a retry gets while the first request with its key is pending.
describe('IdempotencyStore', () => {
  const store = new IdempotencyStore({ REDIS_URL: process.env['REDIS_URL'], QUEUE_PREFIX: `${process.env['QUEUE_PREFIX']}-idempotency` } as GatewayEnv);
  const company = randomUUID();
  afterAll(() => store.onApplicationShutdown());

  // The producer connection has no offline queue: a command before it is ready fails at once.
  beforeAll(async () => {
    for (;;) {
      const ready = await store.claim(company, 'warm-up', 'warm-up').then(
        () => true,
        () => false,
      );
      if (ready) return;
      await new Promise((wake) => setTimeout(wake, 50));
    }
  });

  it('answers a repeat whose first request never finishes (a crashed gateway left its key pending) with a conflict, not a wait without end', async () => {
    const key = randomUUID();
    expect(await store.claim(company, key, 'fingerprint')).toEqual({ kind: 'first' });
    expect(await store.claim(company, key, 'fingerprint')).toEqual({ kind: 'conflict', error: 'A request with this Idempotency-Key is still being processed' });
  });

  it('replays the first answer once it is stored, and runs a repeat afresh once a failed first released the key', async () => {
    const key = randomUUID();
    await store.claim(company, key, 'fingerprint');
    await store.complete(company, key, 'fingerprint', 200, { ok: true });
    expect(await store.claim(company, key, 'fingerprint')).toEqual({ kind: 'replay', status: 200, body: { ok: true } });
    const released = randomUUID();
    await store.claim(company, released, 'fingerprint');
    await store.release(company, released);
    expect(await store.claim(company, released, 'fingerprint')).toEqual({ kind: 'first' });
  });
});
