// The platform's processes each started on its own, outside the dev-stack (which stops everything
// when one app exits): one SMSC simulator, and any number of each app against the run's one
// PostgreSQL and one Redis, under a queue prefix of the test's own. For the specs that stop,
// restart or double the processes (graceful shutdown, several instances). `npm run build` first.
import { startAppProcess, startSmscSimulatorProcess, type AppProcess, type SmscSimulatorProcess } from '@mp/testing';
import Redis from 'ioredis';
import { simulatorClient } from './dispatcher-fault';

export const FLEET_APPS = ['gateway', 'sms-dispatcher', 'otp', 'billing', 'webhook-notifier'] as const;
export type FleetApp = (typeof FLEET_APPS)[number];

export interface Fleet {
  simulator: SmscSimulatorProcess & ReturnType<typeof simulatorClient>;
  /** The running processes of each app, oldest first; a stopped one is removed. */
  running: Record<FleetApp, AppProcess[]>;
  /** The environment every app of the fleet is started with. */
  env: Record<string, string>;
  queuePrefix: string;
  /** Starts one more process of the app, ready once its /health/ready answers 200. */
  start(app: FleetApp): Promise<AppProcess>;
  /** Forgets a process that has exited (after the test stopped it). */
  forget(process: AppProcess): void;
  /** The gateways' URLs. */
  gatewayUrls(): string[];
  /** Stops every process (SIGTERM, SIGKILL after 30 s), then the simulator. */
  stop(): Promise<void>;
}

export interface FleetOptions {
  /** Suffix of the test's queue prefix: no job another spec left in the run's queues reaches this fleet. */
  name: string;
  /** How many of each app to start (default one each). */
  counts?: Partial<Record<FleetApp, number>>;
  /** Variables over the fleet's defaults, for every app. */
  env?: Record<string, string>;
  /** Variables for the simulator. */
  simulatorEnv?: Record<string, string>;
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const carrier = await startSmscSimulatorProcess(options.simulatorEnv);
  const queuePrefix = `${process.env['QUEUE_PREFIX'] ?? 'mp-test'}-${options.name}`;
  const env: Record<string, string> = {
    QUEUE_PREFIX: queuePrefix,
    SMSC_HOST: '127.0.0.1',
    SMSC_PORT: String(carrier.smppPort),
    OUTBOX_SWEEP_MS: '1000',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'warn',
    ...options.env,
  };
  const running = Object.fromEntries(FLEET_APPS.map((app) => [app, [] as AppProcess[]])) as Record<FleetApp, AppProcess[]>;
  const start = async (app: FleetApp): Promise<AppProcess> => {
    const started = await startAppProcess({ app, env, readyTimeoutMs: 120_000 });
    running[app].push(started);
    return started;
  };
  const fleet: Fleet = {
    simulator: { ...carrier, ...simulatorClient(carrier.httpUrl) },
    running,
    env,
    queuePrefix,
    start,
    forget: (stopped) => {
      for (const app of FLEET_APPS) running[app] = running[app].filter((p) => p !== stopped);
    },
    gatewayUrls: () => running.gateway.map((gateway) => gateway.url),
    stop: async () => {
      await Promise.all(FLEET_APPS.flatMap((app) => running[app].map((p) => p.stop())));
      await carrier.stop();
    },
  };
  try {
    // One at a time: on two shared cores, ten apps starting at once take longer than their timeout.
    for (const app of FLEET_APPS) for (let i = 0; i < (options.counts?.[app] ?? 1); i++) await start(app);
  } catch (error) {
    await fleet.stop();
    throw error;
  }
  return fleet;
}

/**
 * The jobs whose `stalled` event is in a queue's event stream (BullMQ's `<prefix>:<queue>:events`):
 * a worker lost them and another took them up only once their lock had expired.
 */
export async function stalledJobs(redisUrl: string, prefix: string, queues: readonly string[]): Promise<string[]> {
  const redis = new Redis(redisUrl);
  try {
    const stalled: string[] = [];
    for (const queue of queues) {
      const entries = await redis.xrange(`${prefix}:${queue}:events`, '-', '+');
      for (const [, fields] of entries) {
        const event = new Map(Array.from({ length: fields.length / 2 }, (_, i) => [fields[2 * i], fields[2 * i + 1]] as const));
        if (event.get('event') === 'stalled') stalled.push(`${queue}:${event.get('jobId')}`);
      }
    }
    return stalled;
  } finally {
    redis.disconnect();
  }
}
