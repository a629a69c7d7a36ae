// The platform of a fault test, every part its own: a PostgreSQL and a Redis on free ports (see
// own-postgres.ts, own-redis.ts), the SMSC simulator, and each app as a process of its own (not
// the dev-stack, which stops everything when one app dies), so that a test can SIGKILL an app,
// or stop a dependency, and start it again. `npm run build` first.
import { admin, freePort, startAppProcess, startSmscSimulatorProcess, type AppProcess, type SmscSimulatorProcess } from '@mp/testing';
import { Client } from 'pg';
import { simulatorClient } from '../../support/dispatcher-fault';
import type { Company } from '../../support/api-client';
import { startOwnPostgres, type OwnPostgres } from './own-postgres';
import { startOwnRedis, type OwnRedis } from './own-redis';

export const APPS = ['gateway', 'sms-dispatcher', 'otp', 'billing', 'webhook-notifier'] as const;
export type AppName = (typeof APPS)[number];

export interface FaultPlatformOptions {
  /** Variables of the SMSC simulator (latency, failure rate…). */
  simulatorEnv?: Record<string, string>;
  /** Variables of every app, over the defaults below. */
  appEnv?: Record<string, string>;
}

export interface FaultPlatform {
  postgres: OwnPostgres;
  redis: OwnRedis;
  smsc: SmscSimulatorProcess;
  simulator: ReturnType<typeof simulatorClient> & { dropBinds(refuseMs: number): Promise<{ dropped: number }> };
  gatewayUrl: string;
  /** The running process of each app (replaced by restart). */
  apps: Map<AppName, AppProcess>;
  /** Every process that ran, the killed ones included, for the logs of a failure. */
  history: AppProcess[];
  /** SIGKILLs the app and resolves once it has exited (see restart). */
  kill(app: AppName): Promise<void>;
  /** Starts the app again on its port, as an orchestrator would after a crash. */
  restart(app: AppName): Promise<void>;
  createCompany(name: string, balance: string): Promise<Company>;
  /** A new connection to the platform's database (the caller ends it). */
  connect(): Promise<Client>;
  /** The last warnings and errors of every process that ran. */
  warnings(): Record<string, string[]>;
  stop(): Promise<void>;
}

function commonEnv(postgres: OwnPostgres, redis: OwnRedis, smsc: SmscSimulatorProcess, extra: Record<string, string>): Record<string, string> {
  return {
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    QUEUE_PREFIX: 'mp-fault',
    LOG_LEVEL: 'warn',
    SMSC_HOST: '127.0.0.1',
    SMSC_PORT: String(smsc.smppPort),
    // Jobs committed while Redis was down, and receipts stored but not applied, are picked up within a second.
    OUTBOX_SWEEP_MS: '1000',
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    // The webhook retry schedule a thousand times faster: minutes become tens of milliseconds.
    WEBHOOK_RETRY_SCALE: '0.001',
    WEBHOOK_SWEEP_MS: '2000',
    WEBHOOK_OVERDUE_MS: '5000',
    ...extra,
  };
}

export async function startFaultPlatform(options: FaultPlatformOptions = {}): Promise<FaultPlatform> {
  const postgres = await startOwnPostgres();
  const redis = await startOwnRedis().catch(async (error: unknown) => {
    await postgres.remove();
    throw error;
  });
  const apps = new Map<AppName, AppProcess>();
  let smsc: SmscSimulatorProcess | undefined;
  const stopAll = async (): Promise<void> => {
    await Promise.all([...apps.values()].map((process) => process.stop(10_000)));
    await smsc?.stop();
    await redis.remove();
    await postgres.remove();
  };
  const ports = new Map<AppName, string>();
  const history: AppProcess[] = [];
  let env: Record<string, string> = {};
  const startApp = async (app: AppName): Promise<void> => {
    const process = await startAppProcess({ app, env: { ...env, PORT: ports.get(app) ?? '' }, readyTimeoutMs: 120_000 });
    apps.set(app, process);
    history.push(process);
  };
  try {
    smsc = await startSmscSimulatorProcess({ SMSC_RECEIPT_DELAY_MS: '100', ...options.simulatorEnv });
    env = commonEnv(postgres, redis, smsc, options.appEnv ?? {});
    await admin(['db:migrate'], env);
    for (const app of APPS) ports.set(app, String(await freePort()));
    for (const app of APPS) await startApp(app);
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    postgres,
    redis,
    smsc,
    simulator: {
      ...simulatorClient(smsc.httpUrl),
      dropBinds: async (refuseMs) =>
        (await (await fetch(`${smsc.httpUrl}/binds/drop?refuse_ms=${refuseMs}`, { method: 'POST' })).json()) as { dropped: number },
    },
    gatewayUrl: `http://127.0.0.1:${ports.get('gateway')}`,
    apps,
    history,
    kill: async (app) => {
      const exit = await apps.get(app)?.kill('SIGKILL');
      if (exit?.signal !== 'SIGKILL') throw new Error(`${app} ended with ${JSON.stringify(exit)}, not by SIGKILL`);
    },
    restart: startApp,
    createCompany: async (name, balance) => (await admin(['company:create', '--name', name, '--balance', balance], env)) as unknown as Company,
    connect: async () => {
      const client = new Client({ connectionString: postgres.url });
      client.on('error', () => undefined);
      await client.connect();
      return client;
    },
    warnings: () =>
      Object.fromEntries(
        history.map((process) => [
          `${process.app}:${process.pid}`,
          process
            .logs()
            .split('\n')
            .filter((line) => /"level":(40|50|60)/.test(line))
            .slice(-8),
        ]),
      ),
    stop: stopAll,
  };
}
