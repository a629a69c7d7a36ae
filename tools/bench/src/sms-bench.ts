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
import { existsSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
// A benchmark harness is test tooling: it starts the stack exactly as the end-to-end tests do.
import { freePort, startStack, type RunningStack } from '@mp/testing';
import { positive, redisVersion, repoRoot, runAdmin, say, waitForHealth } from './bench-process';
import { appName, backendPids, databaseCounters, pendingParts, perAccepted, submitFigures, WaitSampler, type DatabaseCounters, type SubmitFigures } from './database-figures';
import { load, numbers, stopLoadOnInterrupt, throwIfInterrupted, wasInterrupted, type Company, type LoadRequest, type LoadResult } from './http-load';
import { cpuShares, machineBusyPercent, pidsWithCommand, pidsWithEnv, sampleCpu, type CpuShare, type CpuSample } from './process-cpu';
import {
  describeMachine,
  fileStamp,
  machine,
  revision,
  SMS_TARGETS,
  smsVerdicts,
  writeSmsResults,
  type Machine,
  type Revision,
  type SmsBenchFigures,
  type TargetVerdicts,
} from './results';
import { createThrowawayServices, type ThrowawayServices } from './throwaway-services';

const WARMUP_S = 3;
const RECEIPT_DELAY_MS = 1_000;
const DRAIN_TIMEOUT_S = 120;
const OPENING_BALANCE = '1000000';
const TEXT = 'Your parcel is on its way';
const APPS = ['gateway', 'sms-dispatcher', 'smsc-simulator'];

/** One run: its settings from the environment, when it started, and the commit it measures. */
interface Run {
  root: string;
  durationS: number;
  connections: number;
  started: Date;
  rev: Revision;
}

/** A run with its throwaway services and its own session on the run's database. */
interface Bench {
  run: Run;
  services: ThrowawayServices;
  db: Client;
  database: string;
}

interface CpuFigures {
  windowS: number;
  busy: number;
  shares: CpuShare[];
}

/** What the measured window produced. */
interface Window {
  start: Date;
  end: Date;
  result: LoadResult;
  cpu: CpuFigures;
  countersBefore: DatabaseCounters;
  countersAfter: DatabaseCounters;
  waits: WaitSampler;
}

function newRun(env: NodeJS.ProcessEnv): Run {
  const durationS = positive(env['BENCH_DURATION_S'], 30, 'BENCH_DURATION_S');
  const connections = Math.round(positive(env['BENCH_CONNECTIONS'], 64, 'BENCH_CONNECTIONS'));
  const root = repoRoot();
  for (const entry of ['dist/out/tools/dev-stack/src/main.js', 'dist/out/tools/admin/src/main.js']) {
    if (!existsSync(join(root, entry))) throw new Error(`${entry} is missing: run npm run build first`);
  }
  return { root, durationS, connections, started: new Date(), rev: revision(root) };
}

/** Migrates the run's database and creates the one company that sends every request. */
async function prepareDatabase(root: string, env: NodeJS.ProcessEnv): Promise<Company> {
  await runAdmin(root, ['db:migrate'], env);
  return (await runAdmin(root, ['company:create', '--name', 'Bench', '--balance', OPENING_BALANCE], env)) as unknown as Company;
}

function startSmsStack(runEnv: Record<string, string>, dispatcherPort: number, run: string): Promise<RunningStack> {
  say(`starting ${APPS.join(', ')}`);
  return startStack({
    apps: APPS,
    env: {
      ...runEnv,
      SMS_DISPATCHER_PORT: String(dispatcherPort),
      SMSC_RECEIPT_DELAY_MS: String(RECEIPT_DELAY_MS),
      // Marks the run's processes, to find them in /proc for their CPU time.
      MP_BENCH_RUN: run,
    },
  });
}

/** The measured load, with the CPU time of the processes and the database's figures around it. */
async function measureWindow({ run, services, db, database }: Bench, url: string, request: LoadRequest): Promise<Window> {
  const apps = pidsWithEnv('MP_BENCH_RUN', services.run).filter((p) => p.pid !== process.pid);
  const redisPids = pidsWithCommand('redis-server');
  const pgBefore = await backendPids(db, database);
  const countersBefore = await databaseCounters(db, database);
  const cpuBefore: CpuSample = sampleCpu([...apps.map((p) => p.pid), ...pgBefore, ...redisPids]);
  const benchCpuBefore = process.cpuUsage();
  const waits = new WaitSampler(db, database);
  waits.start();
  say(`measuring: ${run.connections} connections for ${run.durationS} s`);
  const start = new Date();
  const result = await load(url, request, run.connections, run.durationS);
  const end = new Date();
  waits.stop();
  const pgPids = [...new Set([...pgBefore, ...(await backendPids(db, database))])];
  // pg_stat_database is updated by the backends about once a second: let the window's figures arrive.
  await new Promise((wake) => setTimeout(wake, 1_500));
  const countersAfter = await databaseCounters(db, database);
  const cpuAfter = sampleCpu([...apps.map((p) => p.pid), ...pgPids, ...redisPids]);
  const benchCpu = process.cpuUsage(benchCpuBefore);
  throwIfInterrupted();

  const groups: Record<string, number[]> = {};
  for (const app of apps) (groups[appName(app.command)] ??= []).push(app.pid);
  groups['postgres (run)'] = pgPids;
  groups['redis-server (shared)'] = redisPids;
  const cpu = cpuFigures(cpuBefore, cpuAfter, groups, benchCpu);
  return { start, end, result, cpu, countersBefore, countersAfter, waits };
}

function cpuFigures(before: CpuSample, after: CpuSample, groups: Record<string, number[]>, benchCpu: NodeJS.CpuUsage): CpuFigures {
  const shares = cpuShares(before, after, groups);
  const windowS = (after.at - before.at) / 1000;
  shares.push({ name: 'autocannon (bench)', pids: [process.pid], percentOfOneCore: Math.round(((benchCpu.user + benchCpu.system) / 1e4 / windowS) * 10) / 10 });
  const busy = machineBusyPercent(before, after);
  // What the machine did besides this run (other people's work on a shared machine shows here).
  const ours = shares.reduce((sum, share) => sum + share.percentOfOneCore, 0);
  shares.push({ name: 'everything else', pids: [], percentOfOneCore: Math.max(0, Math.round(busy * cpus().length - ours)) });
  return { windowS, busy, shares };
}

function cpuLine(shares: CpuShare[], busy: number): string {
  const of = (name: string) => shares.find((share) => share.name === name)?.percentOfOneCore ?? 0;
  return `gw ${of('gateway')} / disp ${of('sms-dispatcher')} / sim ${of('smsc-simulator')} / pg ${of('postgres (run)')} / ac ${of('autocannon (bench)')} / other ${of('everything else')}; machine ${busy}%`;
}

/** Seconds until every part of the window was submitted after the load, or null if not within DRAIN_TIMEOUT_S. */
async function drain(db: Client, from: Date, to: Date): Promise<number | null> {
  say('waiting for the dispatcher to submit every part of the window');
  const drainStart = Date.now();
  let pending = await pendingParts(db, from, to);
  while (pending > 0 && Date.now() - drainStart < DRAIN_TIMEOUT_S * 1000 && !wasInterrupted()) {
    await new Promise((wake) => setTimeout(wake, 500));
    pending = await pendingParts(db, from, to);
  }
  return pending === 0 ? Math.round((Date.now() - drainStart) / 100) / 10 : null;
}

function smsFigures(result: LoadResult, connections: number, submit: SubmitFigures, drainedAfterS: number | null): SmsBenchFigures {
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0]));
  return {
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
}

/** Everything the JSON file of the run holds. */
function details(run: Run, host: Machine, window: Window, figures: SmsBenchFigures, verdicts: TargetVerdicts): object {
  return {
    benchmark: 'sms',
    started: run.started.toISOString(),
    revision: run.rev,
    machine: host,
    settings: { durationS: run.durationS, warmupS: WARMUP_S, connections: run.connections, apps: APPS, logLevel: 'warn', receiptDelayMs: RECEIPT_DELAY_MS, text: TEXT, recipientsPerRequest: 1 },
    figures,
    targets: SMS_TARGETS,
    verdicts,
    cpu: { windowS: window.cpu.windowS, machineBusyPercentOfAllCores: window.cpu.busy, processes: window.cpu.shares },
    postgresPerAcceptedMessage: {
      note: 'pg_stat_database deltas over the window divided by the accepted messages; includes the dispatcher’s work on them, and a little of the second after',
      ...perAccepted(window.countersBefore, window.countersAfter, window.result['2xx']),
    },
    postgresSessions: { samples: window.waits.samples, note: 'average number of the run’s sessions in each state per sample', top: window.waits.top() },
    notes: [
      'latency: autocannon, 2xx answers only, whole milliseconds; autocannon runs in this process on the same machine as the platform.',
      'submit: messages.created_at (start of the acceptance transaction) to message_parts.submitted_at (start of the transaction recording the submit_sm_resp): an upper bound of acceptance → submit_sm.',
      'every request is sent by one company, so every acceptance debits the same balance row.',
      'the run database is ANALYZEd after the warm-up, as a database in service has statistics.',
    ],
  };
}

/** The run's lines on stdout. */
function summary(figures: SmsBenchFigures, verdicts: TargetVerdicts, host: Machine, rev: Revision, cpu: string, path: string): string {
  const submit = figures.submit;
  return [
    `sms: ${figures.acceptedPerSecond} accepted/s over ${figures.durationS} s with ${figures.connections} connections (${figures.accepted} accepted, ${figures.non2xx} non-2xx, ${figures.errors} errors)`,
    `  latency ms: p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, p99.9 ${figures.latencyMs.p999}, max ${figures.latencyMs.max}`,
    `  acceptance → submit ms: p50 ${submit.p50Ms}, p99 ${submit.p99Ms}, max ${submit.maxMs} over ${submit.samples} parts; ${submit.drainedAfterS === null ? `${submit.notSubmittedAtEnd} parts still pending after ${DRAIN_TIMEOUT_S} s` : `backlog drained ${submit.drainedAfterS} s after the load`}`,
    `  target ≥ ${SMS_TARGETS.acceptedPerSecond}/s with p99 ≤ ${SMS_TARGETS.p99Ms} ms: ${verdicts.throughput ? 'met' : 'NOT met'}; submit p99 ≤ ${SMS_TARGETS.submitP99Ms} ms: ${verdicts.submit ? 'met' : 'NOT met'}`,
    `  CPU (% of one core): ${cpu}`,
    `  machine: ${describeMachine(host)}; commit ${rev.commit}${rev.dirty ? ' (dirty tree)' : ''}`,
    `  written: ${path} and bench/results/README.md`,
    '',
  ].join('\n');
}

/** Writes bench/results/sms-<date>.json and the README row, and prints the summary. */
async function report({ run, services, db }: Bench, window: Window, figures: SmsBenchFigures): Promise<void> {
  const versions = await db.query<{ server_version: string }>(`SHOW server_version`);
  const host = machine(`PostgreSQL ${versions.rows[0].server_version}`, await redisVersion(services.redisUrl));
  const file = `sms-${fileStamp(run.started)}.json`;
  const verdicts = smsVerdicts(figures);
  const cpu = cpuLine(window.cpu.shares, window.cpu.busy);
  const row = { started: run.started, revision: run.rev, machine: host, figures, cpu, file };
  const path = writeSmsResults(join(run.root, 'bench/results'), row, details(run, host, window, figures, verdicts));
  process.stdout.write(summary(figures, verdicts, host, run.rev, cpu, path));
}

export async function runSmsBench(): Promise<void> {
  const env = process.env;
  const run = newRun(env);
  const stopHandlingInterrupt = stopLoadOnInterrupt();

  say('creating a throwaway database and queue prefix');
  const services = await createThrowawayServices(env);
  const runEnv = { DATABASE_URL: services.databaseUrl, REDIS_URL: services.redisUrl, QUEUE_PREFIX: services.queuePrefix, LOG_LEVEL: 'warn' };
  const db = new Client({ connectionString: services.databaseUrl, application_name: 'bench' });
  const bench: Bench = { run, services, db, database: new URL(services.databaseUrl).pathname.slice(1) };
  let stack: RunningStack | undefined;
  try {
    await db.connect();
    const company = await prepareDatabase(run.root, { ...env, ...runEnv });
    const dispatcherPort = await freePort();
    stack = await startSmsStack(runEnv, dispatcherPort, services.run);
    await waitForHealth(`http://127.0.0.1:${dispatcherPort}/health/ready`);
    const nextNumber = numbers();
    const request: LoadRequest = { company, path: '/sms/send', body: () => ({ to: nextNumber(), message: TEXT, from: 'Bench' }) };

    say(`warming up for ${WARMUP_S} s`);
    await load(stack.gatewayUrl, request, run.connections, WARMUP_S);
    throwIfInterrupted();
    // A fresh database has no statistics yet, and autovacuum takes a minute to gather them: without
    // them PostgreSQL guesses that `id = ANY(…)` matches a fifth of a table and scans all of it.
    // A database in service has them, so the measured window starts with them too.
    await db.query('ANALYZE');

    const window = await measureWindow(bench, stack.gatewayUrl, request);
    const drainedAfterS = await drain(db, window.start, window.end);
    const submit = await submitFigures(db, window.start, window.end);
    await report(bench, window, smsFigures(window.result, run.connections, submit, drainedAfterS));
  } catch (error) {
    if (stack) process.stderr.write(`[bench] the stack's last output:\n${stack.logs().split('\n').slice(-30).join('\n')}\n`);
    throw error;
  } finally {
    stopHandlingInterrupt();
    await db.end().catch(() => undefined);
    try {
      await stack?.stop();
    } finally {
      say('removing the throwaway database and queue keys');
      await services.remove();
    }
  }
}
