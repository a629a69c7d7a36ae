// `npm run bench -- sms`: how fast POST /sms/send accepts messages on this machine, and how soon
// the dispatcher submits them to the carrier. It measures and reports; it changes nothing.
//
//   1. a throwaway database and Redis prefix; one company with a large balance;
//   2. the SMS path as `npm start` runs it (libs/testing's startStack): gateway, sms-dispatcher,
//      SMSC simulator with receipts after 1 s, LOG_LEVEL=warn;
//   3. autocannon: BENCH_CONNECTIONS (64) connections for BENCH_DURATION_S (30) seconds after a
//      short warm-up, each request one recipient, each recipient a different valid number;
//   4. acceptance → submit from the database: message_parts.submitted_at − messages.created_at;
//   5. CPU per process and PostgreSQL wait events over the window: where the time goes;
//   6. bench/results/sms-<date>.json and a row in bench/results/README.md.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import autocannon from 'autocannon';
import Redis from 'ioredis';
import { Client } from 'pg';
// A benchmark harness is test tooling: it starts the stack exactly as the end-to-end tests do.
import { freePort, startStack, type RunningStack } from '@mp/testing';
import { cpuShares, machineBusyPercent, pidsWithCommand, pidsWithEnv, sampleCpu, type CpuShare, type CpuSample } from './process-cpu';
import { describeMachine, fileStamp, machine, revision, SMS_TARGETS, smsVerdicts, writeSmsResults, type SmsBenchFigures } from './results';
import { createThrowawayServices } from './throwaway-services';

const WARMUP_S = 3;
const RECEIPT_DELAY_MS = 1_000;
const DRAIN_TIMEOUT_S = 120;
const OPENING_BALANCE = '1000000';
const TEXT = 'Your parcel is on its way';
const APPS = ['gateway', 'sms-dispatcher', 'smsc-simulator'];

interface Company {
  api_key: string;
  api_secret: string;
}

function repoRoot(): string {
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error('bench: no nx.json above tools/bench');
  }
}

function positive(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new Error(`${name}=${JSON.stringify(value)} is not a positive number`);
  return number;
}

function say(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

/** The compiled admin tool, as an operator runs it; its one JSON object. */
function runAdmin(root: string, args: string[], env: NodeJS.ProcessEnv): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', join(root, 'tools/runtime/register.js'), join(root, 'dist/out/tools/admin/src/main.js'), ...args], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolve(JSON.parse(stdout) as Record<string, unknown>);
      reject(new Error(`admin ${args.join(' ')} exited ${code}: ${stderr.trim()}`));
    });
  });
}

async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await new Promise((wake) => setTimeout(wake, 250));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/** +33 6 1x xx xx xx: ten million valid French mobile numbers, a different one per request. */
function numbers(): () => string {
  let next = 0;
  return () => `+3361${String(next++ % 10_000_000).padStart(7, '0')}`;
}

let running: autocannon.Instance | undefined;
let interrupted = false;

function load(url: string, company: Company, connections: number, durationS: number, nextNumber: () => string): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    running = autocannon(
      {
        url,
        connections,
        duration: durationS,
        requests: [
          {
            method: 'POST',
            path: '/sms/send',
            headers: { 'content-type': 'application/json', 'x-api-key': company.api_key, 'x-api-secret': company.api_secret },
            setupRequest: (request) => ({ ...request, body: JSON.stringify({ to: nextNumber(), message: TEXT, from: 'Bench' }) }),
          },
        ],
      },
      (error, result) => {
        running = undefined;
        if (error) reject(error instanceof Error ? error : new Error(String(error)));
        else resolve(result);
      },
    );
  });
}

/** Counts of (app, state, wait event) among the run's database sessions, sampled while loading. */
class WaitSampler {
  readonly counts = new Map<string, number>();
  samples = 0;
  private timer?: NodeJS.Timeout;
  private busy = false;

  constructor(
    private readonly db: Client,
    private readonly database: string,
  ) {}

  start(everyMs = 500): void {
    this.timer = setInterval(() => void this.sample(), everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  top(limit = 12): { session: string; share: number }[] {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([session, count]) => ({ session, share: Math.round((count / Math.max(1, this.samples)) * 10) / 10 }));
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { rows } = await this.db.query<{ app: string; state: string | null; type: string | null; event: string | null }>(
        `SELECT application_name AS app, state, wait_event_type AS type, wait_event AS event
         FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`,
        [this.database],
      );
      this.samples += 1;
      for (const row of rows) {
        if (row.state === 'idle') continue;
        const key = `${row.app || '?'} ${row.state ?? '?'} ${row.type ? `${row.type}:${row.event}` : 'on CPU'}`;
        this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
      }
    } catch {
      // a missed sample
    } finally {
      this.busy = false;
    }
  }
}

type DatabaseCounters = Record<string, number>;

/** The run database's activity counters (commits, rollbacks, rows), to compare before and after. */
async function databaseCounters(db: Client, database: string): Promise<DatabaseCounters> {
  const { rows } = await db.query<Record<string, string>>(
    `SELECT xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated, tup_deleted, blks_read, blks_hit
     FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  return Object.fromEntries(Object.entries(rows[0] ?? {}).map(([name, value]) => [name, Number(value)]));
}

/** What the database did per accepted message over the window (the statistics lag by up to a second). */
function perAccepted(before: DatabaseCounters, after: DatabaseCounters, accepted: number): Record<string, number> {
  return Object.fromEntries(
    Object.keys(after).map((name) => [name, accepted > 0 ? Math.round(((after[name] - (before[name] ?? 0)) / accepted) * 10) / 10 : 0]),
  );
}

async function backendPids(db: Client, database: string): Promise<number[]> {
  const { rows } = await db.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, [database]);
  return rows.map((row) => row.pid);
}

function appName(command: string): string {
  if (command.includes('apps/gateway/')) return 'gateway';
  if (command.includes('apps/sms-dispatcher/')) return 'sms-dispatcher';
  if (command.includes('smsc-simulator')) return 'smsc-simulator';
  if (command.includes('dev-stack')) return 'dev-stack';
  return 'other';
}

interface SubmitFigures {
  samples: number;
  p50Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  pending: number;
}

async function submitFigures(db: Client, from: Date, to: Date): Promise<SubmitFigures> {
  const { rows } = await db.query<{ samples: string; p50: number | null; p99: number | null; max: number | null; pending: string }>(
    `SELECT count(p.submitted_at) AS samples,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS p50,
            percentile_disc(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS p99,
            max(extract(epoch FROM p.submitted_at - m.created_at) * 1000) AS max,
            count(*) FILTER (WHERE p.status = 'pending') AS pending
     FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE m.created_at >= $1 AND m.created_at <= $2`,
    [from, to],
  );
  const row = rows[0];
  const ms = (value: number | null) => (value === null ? null : Math.round(Number(value) * 10) / 10);
  return { samples: Number(row.samples), p50Ms: ms(row.p50), p99Ms: ms(row.p99), maxMs: ms(row.max), pending: Number(row.pending) };
}

async function pendingParts(db: Client, from: Date, to: Date): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM messages m JOIN message_parts p ON p.message_id = m.id
     WHERE m.created_at >= $1 AND m.created_at <= $2 AND p.status = 'pending'`,
    [from, to],
  );
  return Number(rows[0].n);
}

function cpuLine(shares: CpuShare[], busy: number): string {
  const of = (name: string) => shares.find((share) => share.name === name)?.percentOfOneCore ?? 0;
  return `gw ${of('gateway')} / disp ${of('sms-dispatcher')} / sim ${of('smsc-simulator')} / pg ${of('postgres (run)')} / ac ${of('autocannon (bench)')} / other ${of('everything else')}; machine ${busy}%`;
}

export async function runSmsBench(): Promise<void> {
  const env = process.env;
  const durationS = positive(env['BENCH_DURATION_S'], 30, 'BENCH_DURATION_S');
  const connections = Math.round(positive(env['BENCH_CONNECTIONS'], 64, 'BENCH_CONNECTIONS'));
  const root = repoRoot();
  for (const entry of ['dist/out/tools/dev-stack/src/main.js', 'dist/out/tools/admin/src/main.js']) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  const started = new Date();
  const rev = revision(root);
  const onInterrupt = () => {
    interrupted = true;
    running?.stop();
  };
  process.once('SIGINT', onInterrupt);

  say('creating a throwaway database and queue prefix');
  const services = await createThrowawayServices(env);
  const runEnv = { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl, QUEUE_PREFIX: services.queuePrefix, LOG_LEVEL: 'warn' };
  const db = new Client({ connectionString: services.databaseUrl, application_name: 'bench' });
  const database = new URL(services.databaseUrl).pathname.slice(1);
  let stack: RunningStack | undefined;
  try {
    await db.connect();
    await runAdmin(root, ['db:migrate'], { ...env, ...runEnv });
    const company = (await runAdmin(root, ['company:create', '--name', 'Bench', '--balance', OPENING_BALANCE], { ...env, ...runEnv })) as unknown as Company;
    const dispatcherPort = await freePort();
    say(`starting ${APPS.join(', ')}`);
    stack = await startStack({
      apps: APPS,
      env: {
        ...runEnv,
        SMS_DISPATCHER_PORT: String(dispatcherPort),
        SMSC_RECEIPT_DELAY_MS: String(RECEIPT_DELAY_MS),
        // Marks the run's processes, to find them in /proc for their CPU time.
        MP_BENCH_RUN: services.run,
      },
    });
    await waitForHealth(`http://127.0.0.1:${dispatcherPort}/health/ready`);
    const nextNumber = numbers();

    say(`warming up for ${WARMUP_S} s`);
    await load(stack.gatewayUrl, company, connections, WARMUP_S, nextNumber);
    if (interrupted) throw new Error('interrupted');

    const apps = pidsWithEnv('MP_BENCH_RUN', services.run).filter((p) => p.pid !== process.pid);
    const redisPids = pidsWithCommand('redis-server');
    const pgBefore = await backendPids(db, database);
    const countersBefore = await databaseCounters(db, database);
    const cpuBefore: CpuSample = sampleCpu([...apps.map((p) => p.pid), ...pgBefore, ...redisPids]);
    const benchCpuBefore = process.cpuUsage();
    const waits = new WaitSampler(db, database);
    waits.start();
    say(`measuring: ${connections} connections for ${durationS} s`);
    const windowStart = new Date();
    const result = await load(stack.gatewayUrl, company, connections, durationS, nextNumber);
    const windowEnd = new Date();
    waits.stop();
    const pgPids = [...new Set([...pgBefore, ...(await backendPids(db, database))])];
    // pg_stat_database is updated by the backends about once a second: let the window's figures arrive.
    await new Promise((wake) => setTimeout(wake, 1_500));
    const countersAfter = await databaseCounters(db, database);
    const cpuAfter = sampleCpu([...apps.map((p) => p.pid), ...pgPids, ...redisPids]);
    const benchCpu = process.cpuUsage(benchCpuBefore);
    if (interrupted) throw new Error('interrupted');

    const groups: Record<string, number[]> = {};
    for (const app of apps) (groups[appName(app.command)] ??= []).push(app.pid);
    groups['postgres (run)'] = pgPids;
    groups['redis-server (shared)'] = redisPids;
    const shares = cpuShares(cpuBefore, cpuAfter, groups);
    const windowS = (cpuAfter.at - cpuBefore.at) / 1000;
    shares.push({ name: 'autocannon (bench)', pids: [process.pid], percentOfOneCore: Math.round(((benchCpu.user + benchCpu.system) / 1e4 / windowS) * 10) / 10 });
    const busy = machineBusyPercent(cpuBefore, cpuAfter);
    // What the machine did besides this run (other people's work on a shared machine shows here).
    const ours = shares.reduce((sum, share) => sum + share.percentOfOneCore, 0);
    shares.push({ name: 'everything else', pids: [], percentOfOneCore: Math.max(0, Math.round(busy * cpus().length - ours)) });

    say('waiting for the dispatcher to submit every part of the window');
    const drainStart = Date.now();
    let pending = await pendingParts(db, windowStart, windowEnd);
    while (pending > 0 && Date.now() - drainStart < DRAIN_TIMEOUT_S * 1000 && !interrupted) {
      await new Promise((wake) => setTimeout(wake, 500));
      pending = await pendingParts(db, windowStart, windowEnd);
    }
    const drainedAfterS = pending === 0 ? Math.round((Date.now() - drainStart) / 100) / 10 : null;
    const submit = await submitFigures(db, windowStart, windowEnd);

    const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
    const figures: SmsBenchFigures = {
      durationS: result.duration,
      connections,
      requests: result.requests.total,
      accepted: result['2xx'],
      acceptedPerSecond: Math.round(result['2xx'] / result.duration),
      latencyMs: { p50: result.latency.p50, p99: result.latency.p99, p999: result.latency.p99_9, max: result.latency.max, mean: result.latency.mean },
      non2xx: result.non2xx,
      statusCodes,
      errors: result.errors,
      timeouts: result.timeouts,
      submit: { samples: submit.samples, p50Ms: submit.p50Ms, p99Ms: submit.p99Ms, maxMs: submit.maxMs, notSubmittedAtEnd: submit.pending, drainedAfterS },
    };
    const versions = await db.query<{ server_version: string }>(`SHOW server_version`);
    const host = machine(`PostgreSQL ${versions.rows[0].server_version}`, await redisVersion(services.redisUrl));
    const file = `sms-${fileStamp(started)}.json`;
    const verdicts = smsVerdicts(figures);
    const details = {
      benchmark: 'sms',
      started: started.toISOString(),
      revision: rev,
      machine: host,
      settings: { durationS, warmupS: WARMUP_S, connections, apps: APPS, logLevel: 'warn', receiptDelayMs: RECEIPT_DELAY_MS, text: TEXT, recipientsPerRequest: 1 },
      figures,
      targets: SMS_TARGETS,
      verdicts,
      cpu: { windowS, machineBusyPercentOfAllCores: busy, processes: shares },
      postgresPerAcceptedMessage: {
        note: 'pg_stat_database deltas over the window divided by the accepted messages; includes the dispatcher’s work on them, and a little of the second after',
        ...perAccepted(countersBefore, countersAfter, result['2xx']),
      },
      postgresSessions: { samples: waits.samples, note: 'average number of the run’s sessions in each state per sample', top: waits.top() },
      notes: [
        'latency: autocannon, 2xx answers only, whole milliseconds; autocannon runs in this process on the same machine as the platform.',
        'submit: messages.created_at (start of the acceptance transaction) to message_parts.submitted_at (start of the transaction recording the submit_sm_resp): an upper bound of acceptance → submit_sm.',
        'every request is sent by one company, so every acceptance debits the same balance row.',
      ],
    };
    const path = writeSmsResults(join(root, 'bench/results'), { started, revision: rev, machine: host, figures, cpu: cpuLine(shares, busy), file }, details);
    process.stdout.write(
      [
        `sms: ${figures.acceptedPerSecond} accepted/s over ${figures.durationS} s with ${connections} connections (${figures.accepted} accepted, ${figures.non2xx} non-2xx, ${figures.errors} errors)`,
        `  latency ms: p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, p99.9 ${figures.latencyMs.p999}, max ${figures.latencyMs.max}`,
        `  acceptance → submit ms: p50 ${submit.p50Ms}, p99 ${submit.p99Ms}, max ${submit.maxMs} over ${submit.samples} parts; ${drainedAfterS === null ? `${submit.pending} parts still pending after ${DRAIN_TIMEOUT_S} s` : `backlog drained ${drainedAfterS} s after the load`}`,
        `  target ≥ ${SMS_TARGETS.acceptedPerSecond}/s with p99 ≤ ${SMS_TARGETS.p99Ms} ms: ${verdicts.throughput ? 'met' : 'NOT met'}; submit p99 ≤ ${SMS_TARGETS.submitP99Ms} ms: ${verdicts.submit ? 'met' : 'NOT met'}`,
        `  CPU (% of one core): ${cpuLine(shares, busy)}`,
        `  machine: ${describeMachine(host)}; commit ${rev.commit}${rev.dirty ? ' (dirty tree)' : ''}`,
        `  written: ${path} and bench/results/README.md`,
        '',
      ].join('\n'),
    );
  } catch (error) {
    if (stack) process.stderr.write(`[bench] the stack's last output:\n${stack.logs().split('\n').slice(-30).join('\n')}\n`);
    throw error;
  } finally {
    process.off('SIGINT', onInterrupt);
    await db.end().catch(() => undefined);
    try {
      await stack?.stop();
    } finally {
      say('removing the throwaway database and queue keys');
      await services.remove();
    }
  }
}

async function redisVersion(url: string): Promise<string> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    const info = await redis.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    redis.disconnect();
  }
}
