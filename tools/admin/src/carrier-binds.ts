import type { SmscBindReport } from '@mp/queue-runtime';
import { carrierHealthAcross, type CarrierHealthAcross } from '@mp/routing-domain';
import type { AdminEnv } from './admin.env';

export type CarrierBinds =
  { ok: true; byCarrier: Map<string, Omit<SmscBindReport, 'route'>[]>; health: Map<string, CarrierHealthAcross> } | { ok: false; error: string };

const READY_WITHIN_MS = 5_000;

/**
 * The binds the running dispatchers publish to Redis (docs/decisions/0038-smsc-bind-state-in-redis.md),
 * by the carrier they report (their `route`: `default`, `standard`, `premium` from SMSC_*, the
 * names ensureDefaultCarrier gives those carriers), and the carriers' health they publish, summed
 * over the dispatchers (docs/decisions/0060-carrier-health-in-redis.md). Redis unreachable: said, not fatal, since the
 * carriers themselves come from the database.
 */
export async function readCarrierBinds(config: Pick<AdminEnv, 'REDIS_URL' | 'QUEUE_PREFIX'>): Promise<CarrierBinds> {
  // Loaded here: BullMQ takes a second to load, which the other commands do not need.
  const { createRedisConnection, readBindStates, readCarrierHealth } = await import('@mp/queue-runtime');
  const redis = createRedisConnection(config.REDIS_URL, 'probe', 'admin-carrier-binds');
  // Its errors end in the answer below; without a listener ioredis prints each to stderr.
  redis.on('error', () => undefined);
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Redis not ready within ${READY_WITHIN_MS} ms`)), READY_WITHIN_MS);
      redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
    const byCarrier = new Map<string, Omit<SmscBindReport, 'route'>[]>();
    for (const { route, ...bind } of await readBindStates(redis, config.QUEUE_PREFIX)) byCarrier.set(route, [...(byCarrier.get(route) ?? []), bind]);
    return { ok: true, byCarrier, health: carrierHealthAcross(await readCarrierHealth(redis, config.QUEUE_PREFIX)) };
  } catch (error) {
    return { ok: false, error: `bind states not read: ${(error as Error).message}` };
  } finally {
    redis.disconnect();
  }
}
