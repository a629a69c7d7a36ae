// A fresh PostgreSQL database and Redis key prefix for one benchmark run, made the way the test
// suites make theirs (libs/testing/src/global-setup.js) and removed afterwards.
import Redis from 'ioredis';
import { Client } from 'pg';

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

export interface ThrowawayServices {
  run: string;
  /** The run's database. */
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  /** Drops the database and the prefix's Redis keys. */
  remove(): Promise<void>;
}

function withDatabase(url: string, database: string): string {
  const copy = new URL(url);
  copy.pathname = `/${database}`;
  return copy.toString();
}

/** DATABASE_URL names the server (its database part is replaced); REDIS_URL the Redis. */
export async function createThrowawayServices(env: NodeJS.ProcessEnv): Promise<ThrowawayServices> {
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const server = withDatabase(env['DATABASE_URL'] || DEFAULT_SERVER, 'postgres');
  const database = `mp_bench_${run}`;
  const admin = new Client({ connectionString: server });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`the benchmark needs PostgreSQL at ${new URL(server).host} (set DATABASE_URL): ${(error as Error).message}`);
  }
  try {
    await admin.query(`CREATE DATABASE ${database}`);
  } finally {
    await admin.end();
  }
  const redisUrl = env['REDIS_URL'] || DEFAULT_REDIS;
  const queuePrefix = `mp-bench-${run}`;
  return {
    run,
    databaseUrl: withDatabase(server, database),
    redisUrl,
    queuePrefix,
    remove: async () => {
      const client = new Client({ connectionString: server });
      await client.connect();
      try {
        // BENCH_KEEP_DATABASE=1 leaves the run's database for a look afterwards (timelines, plans).
        if (env['BENCH_KEEP_DATABASE'] === '1') process.stderr.write(`[bench] keeping database ${database}\n`);
        else await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      } finally {
        await client.end();
      }
      const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
      await redis.connect();
      try {
        let cursor = '0';
        do {
          const [next, keys] = await redis.scan(cursor, 'MATCH', `${queuePrefix}*`, 'COUNT', 1000);
          if (keys.length > 0) await redis.unlink(...keys);
          cursor = next;
        } while (cursor !== '0');
      } finally {
        redis.disconnect();
      }
    },
  };
}
