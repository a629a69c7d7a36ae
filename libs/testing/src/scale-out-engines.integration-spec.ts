import { createDataSource, inOneRoundTrip, inTransactionOpenedWith, openingOf, queryPrepared, raw, runMigrations, sql } from '@mp/persistence';
import { createRedisConnection, publishBindStates, readBindStates, type RedisConnection } from '@mp/queue-runtime';
import { SlidingWindowLimiter, takeAll } from '@mp/rate-limit';
import type { DataSource } from 'typeorm';
import { startPgBouncer, type RunningPgBouncer } from './pgbouncer';
import { startRedisCluster, type RunningRedisCluster } from './redis-cluster';

describe('a Redis Cluster (startRedisCluster)', () => {
  let cluster: RunningRedisCluster;
  let redis: RedisConnection;
  const prefix = `{${process.env['QUEUE_PREFIX']}-cluster}`;

  beforeAll(async () => {
    cluster = await startRedisCluster();
    redis = createRedisConnection(cluster.url, 'worker', 'cluster-spec');
  });
  afterAll(async () => {
    redis?.disconnect();
    await cluster?.stop();
  });

  it('has three masters that split the slots, and a redis+cluster:// URL naming them', async () => {
    expect(cluster.url).toMatch(/^redis\+cluster:\/\/127\.0\.0\.1:\d+,127\.0\.0\.1:\d+,127\.0\.0\.1:\d+$/);
    const slots = await redis.cluster('SLOTS');
    expect(new Set(slots.map(([, , [, port]]) => port))).toEqual(new Set(cluster.nodes.map((node) => node.port)));
  });

  it("takes slots of several windows in one script when the keys share the prefix's hash tag, and refuses at the limit", async () => {
    const minute = new SlidingWindowLimiter(redis, `${prefix}:spec-minute`, 60_000);
    const hour = new SlidingWindowLimiter(redis, `${prefix}:spec-hour`, 3_600_000);
    const takes = [
      { limiter: minute, key: 'company-a', limit: 2 },
      { limiter: hour, key: 'company-a', limit: 5 },
    ];
    const decisions = [await takeAll(takes), await takeAll(takes), await takeAll(takes)];
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, false]);
    expect(decisions[2]).toMatchObject({ allowed: false, refused: 0, used: 2, limit: 2 });
    expect((await hour.usage('company-a', 5)).used).toBe(2);
  });

  it('refuses a script whose keys have no common hash tag (why QUEUE_PREFIX must be one)', async () => {
    const a = new SlidingWindowLimiter(redis, 'untagged-a', 60_000);
    const b = new SlidingWindowLimiter(redis, 'untagged-b', 60_000);
    await expect(
      takeAll([
        { limiter: a, key: 'x', limit: 1 },
        { limiter: b, key: 'x', limit: 1 },
      ]),
    ).rejects.toThrow(/CROSSSLOT/);
  });

  it("reads every dispatcher's binds, wherever the cluster put them", async () => {
    const since = '2026-11-26T10:00:00.000Z';
    await publishBindStates(redis, prefix, 'a:1', [{ route: 'default', bind: 1, target: 'smsc:2775', state: 'bound', since }]);
    await publishBindStates(redis, prefix, 'b:2', [{ route: 'default', bind: 1, target: 'smsc:2775', state: 'connecting', since }]);
    expect((await readBindStates(redis, prefix)).map((bind) => [bind.dispatcher, bind.state])).toEqual([
      ['a:1', 'bound'],
      ['b:2', 'connecting'],
    ]);
  });
});

describe('PostgreSQL behind PgBouncer in transaction mode (startPgBouncer)', () => {
  let bouncer: RunningPgBouncer;
  let db: DataSource;
  const table = `bounced_${process.pid}`;

  beforeAll(async () => {
    bouncer = await startPgBouncer({ databaseUrl: process.env['DATABASE_URL'] as string, poolSize: 2 });
    // More clients than server connections: statements of one client run on either server connection.
    db = createDataSource({ url: bouncer.url, applicationName: 'test-pgbouncer', poolSize: 8, pooler: 'pgbouncer-transaction', genericPlans: true });
    await db.initialize();
    await db.query(`CREATE TABLE ${table} (v text PRIMARY KEY)`);
  });
  afterAll(async () => {
    await db?.query(`DROP TABLE ${table}`);
    await db?.destroy();
    await bouncer?.stop();
  });

  it('runs the same statements from many clients on two server connections (no statement kept prepared)', async () => {
    const texts = Array.from({ length: 40 }, (_, i) => `v${i}`);
    await Promise.all(texts.map((v) => queryPrepared(db.manager, sql`INSERT INTO ${raw(table)} (v) VALUES (${v}::text)`)));
    const counted = await Promise.all(texts.map(() => queryPrepared<{ n: string }>(db.manager, sql`SELECT count(*) AS n FROM ${raw(table)}`)));
    expect(counted.map(([row]) => Number(row.n))).toEqual(texts.map(() => texts.length));
  });

  it('runs transactions opened with prepared openings, and one that failed leaves nothing behind for the next', async () => {
    const insert = (v: string) => openingOf({ text: `INSERT INTO ${table} (v) VALUES ($1::text) RETURNING v`, values: [v] });
    await expect(inOneRoundTrip(db, [insert('dup'), insert('dup')])).rejects.toThrow(/duplicate key/);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        inTransactionOpenedWith(db, [insert(`t${i}`)], async (_manager, [opened], commitWith) => {
          const committed = await commitWith({ text: `INSERT INTO ${table} (v) VALUES ($1::text) RETURNING v`, values: [`c${i}`] });
          return [opened.rows[0]['v'], committed.rows[0]['v']];
        }),
      ),
    );
    expect(results[7]).toEqual(['t7', 'c7']);
    const [{ n }] = await db.query(`SELECT count(*) AS n FROM ${table} WHERE v LIKE 't%' OR v LIKE 'c%' OR v = 'dup'`);
    expect(Number(n)).toBe(40);
  });

  it('refuses to run the migrations through the pooler: their advisory lock is a session lock', async () => {
    await expect(runMigrations(db)).rejects.toThrow(/MIGRATION_DATABASE_URL/);
  });
});
