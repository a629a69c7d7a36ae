import Redis, { Cluster, type RedisOptions } from 'ioredis';

/** A connection to a single Redis server or to a Redis Cluster: every command the platform sends works on both. */
export type RedisConnection = Redis | Cluster;

/** Where REDIS_URL points: one server (its URL) or the seed nodes of a cluster. */
export type RedisTarget =
  { kind: 'server'; url: string } | { kind: 'cluster'; nodes: { host: string; port: number }[]; username?: string; password?: string; tls: boolean };

/** `redis+cluster://[user:password@]host:port,host:port…` (`rediss+cluster://` over TLS): a Redis Cluster, from these seed nodes. */
const CLUSTER_URL = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?$/;

/** REDIS_URL read: a `redis+cluster://` URL names a cluster's seed nodes; anything else is one server's URL. */
export function parseRedisUrl(url: string): RedisTarget {
  const match = CLUSTER_URL.exec(url);
  if (!match) return { kind: 'server', url };
  const [, scheme, userinfo, hosts] = match;
  const nodes = hosts.split(',').map((node) => {
    const at = node.lastIndexOf(':');
    const port = at > 0 ? Number(node.slice(at + 1)) : 6379;
    if (!Number.isInteger(port) || port <= 0) throw new Error(`REDIS_URL: "${node}" is not host:port`);
    return { host: at > 0 ? node.slice(0, at) : node, port };
  });
  const [username, password] = userinfo ? userinfo.split(':').map(decodeURIComponent) : [];
  return { kind: 'cluster', nodes, username: username || undefined, password: password ?? undefined, tls: scheme === 'rediss' };
}

/** Whether REDIS_URL names a Redis Cluster. */
export function isClusterUrl(url: string): boolean {
  return CLUSTER_URL.test(url);
}

/**
 * A connection for BullMQ. Workers need `maxRetriesPerRequest: null` (blocking commands must
 * wait for Redis to come back rather than fail); producers fail fast instead, so an HTTP request
 * answers 503 rather than hang while Redis is down. A `redis+cluster://` URL gives an ioredis
 * Cluster with the same options for each of its nodes.
 */
export function createRedisConnection(url: string, role: 'worker' | 'producer' | 'probe', name: string, extra: RedisOptions = {}): RedisConnection {
  const options: RedisOptions = {
    ...extra,
    connectionName: `${name}:${role}`,
    maxRetriesPerRequest: role === 'worker' ? null : 1,
    enableOfflineQueue: role === 'worker',
    connectTimeout: 5_000,
    retryStrategy: (times) => Math.min(times * 200, 5_000),
  };
  const target = parseRedisUrl(url);
  if (target.kind === 'server') return new Redis(url, options);
  const { lazyConnect, enableOfflineQueue, retryStrategy, ...nodeOptions } = options;
  return new Cluster(target.nodes, {
    lazyConnect,
    enableOfflineQueue,
    clusterRetryStrategy: retryStrategy,
    redisOptions: { ...nodeOptions, username: target.username, password: target.password, ...(target.tls ? { tls: {} } : {}) },
  });
}
