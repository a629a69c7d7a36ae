// Jest global setup for the integration and e2e suites: a fresh PostgreSQL database and a fresh
// Redis key prefix for this run, handed to the test workers (and the processes they start)
// through the environment. DATABASE_URL and REDIS_URL name the servers to use.
const { Client } = require('pg');

const DEFAULT_SERVER = 'postgres://postgres@127.0.0.1:5432/postgres';

module.exports = async function globalSetup() {
  if (process.env.MP_TEST_RUN) return; // already set up by the first project of this run
  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const server = new URL(process.env.DATABASE_URL || DEFAULT_SERVER);
  const database = `mp_test_${run}`;
  const admin = new Client({ connectionString: withDatabase(server, 'postgres') });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`Tests need PostgreSQL at ${server.host} (set DATABASE_URL): ${error.message}`);
  }
  await admin.query(`CREATE DATABASE ${database}`);
  await admin.end();
  process.env.MP_TEST_RUN = run;
  process.env.MP_TEST_SERVER_URL = withDatabase(server, 'postgres');
  process.env.DATABASE_URL = withDatabase(server, database);
  process.env.REDIS_URL = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
  process.env.QUEUE_PREFIX = `mp-test-${run}`;
  process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
  // Carriers are global to a database and every stack on the run's database has its own SMSC
  // simulator: their dispatchers bind the SMSC_* carriers, not the run database's carriers table.
  // A spec with a database of its own gets CARRIERS_FROM=database (stack.ts, app-process.ts).
  process.env.CARRIERS_FROM = process.env.CARRIERS_FROM || 'environment';
};

function withDatabase(url, database) {
  const copy = new URL(url.toString());
  copy.pathname = `/${database}`;
  return copy.toString();
}
