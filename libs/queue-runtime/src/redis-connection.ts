import Redis, { type RedisOptions } from 'ioredis';

/**
 * A connection for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands must
 * wait for Redis to come back rather than fail); producers fail fast instead, so an HTTP request
 * answers 503 rather than hang while Redis is down.
 */
export function createRedisConnection(url: string, role: 'worker' | 'producer' | 'probe', name: string, extra: RedisOptions = {}): Redis {
  const options: RedisOptions = {
    ...extra,
    connectionName: `${name}:${role}`,
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  };
  return new Redis(url, options);
}
