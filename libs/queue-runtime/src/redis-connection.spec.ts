import { Cluster } from 'ioredis';
import { createRedisConnection, isClusterUrl, parseRedisUrl } from './redis-connection';

describe('REDIS_URL', () => {
  it('names one server by any redis:// or rediss:// URL, kept as given', () => {
    expect(parseRedisUrl('redis://:secret@cache.internal:6380/2')).toEqual({ kind: 'server', url: 'redis://:secret@cache.internal:6380/2' });
    expect(isClusterUrl('rediss://cache.internal:6380')).toBe(false);
  });

  it('names the seed nodes of a cluster by redis+cluster://, with credentials and TLS', () => {
    expect(parseRedisUrl('redis+cluster://a.internal:7000,b.internal:7001,c.internal')).toEqual({
      kind: 'cluster',
      nodes: [
        { host: 'a.internal', port: 7000 },
        { host: 'b.internal', port: 7001 },
        { host: 'c.internal', port: 6379 },
      ],
      username: undefined,
      password: undefined,
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://app:p%40ss@a.internal:7000/')).toMatchObject({ username: 'app', password: 'p@ss', tls: true });
  });

  it('refuses a node without a port number', () => {
    expect(() => parseRedisUrl('redis+cluster://a.internal:x')).toThrow('"a.internal:x" is not host:port');
  });

  it('makes an ioredis Cluster for a cluster URL, with the role options on every node', () => {
    const cluster = createRedisConnection('redis+cluster://127.0.0.1:1,127.0.0.1:2', 'worker', 'spec', { lazyConnect: true });
    try {
      expect(cluster).toBeInstanceOf(Cluster);
      expect((cluster as Cluster).options.redisOptions).toMatchObject({ connectionName: 'spec:worker', maxRetriesPerRequest: null });
    } finally {
      cluster.disconnect();
    }
  });
});
