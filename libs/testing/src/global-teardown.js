// Drops the run's database (set KEEP_TEST_DB=1 to keep it for a look) and its Redis keys.
const { Client } = require('pg');
const Redis = require('ioredis');

module.exports = async function globalTeardown() {
  const run = process.env.MP_TEST_RUN;
  if (!run || process.env.KEEP_TEST_DB) return;
  const admin = new Client({ connectionString: process.env.MP_TEST_SERVER_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS mp_test_${run} WITH (FORCE)`);
  await admin.end();
  const redis = new Redis(process.env.REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${process.env.QUEUE_PREFIX}*`, 'COUNT', 1000);
    if (keys.length > 0) await redis.unlink(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
};
