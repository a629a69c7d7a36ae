// `npm start`: the whole platform in the foreground on one machine. It starts PostgreSQL and Redis
// when none are configured, applies the migrations, then runs every app (see processes.ts) with its
// log lines prefixed by its name. Ctrl-C (SIGINT) or SIGTERM stops the apps, then the services it
// started; if an app exits on its own, everything stops and the exit status is 1.
//
// Environment (an empty variable counts as unset):
//   DATABASE_URL   PostgreSQL to use. Unset: an embedded PostgreSQL, data in <MP_DATA_DIR>/postgres,
//                  kept between runs, on port 54320 or the next free one, database "messaging".
//   REDIS_URL      Redis to use. Unset: redis://127.0.0.1:6379; if nothing answers there and
//                  redis-server is on the PATH, one is started for the run (no persistence).
//   PORT           The gateway's port (default 3000).
//   <APP>_PORT     A worker's health port: OTP_PORT (3101), SMS_DISPATCHER_PORT (3102), BILLING_PORT
//                  (3103), WEBHOOK_NOTIFIER_PORT (3104); likewise for any process added later.
//   HOST           The address every app listens on (default 127.0.0.1).
//   LOG_LEVEL      The apps' log level (default info).
//   NODE_ENV       The apps' NODE_ENV (default development).
//   QUEUE_PREFIX   Prefix of the apps' queue keys in Redis (default: the apps' own).
//   MIGRATION_DATABASE_URL
//                  Where the migrations run when DATABASE_URL is PgBouncer in transaction mode
//                  (default DATABASE_URL).
//   MP_DATA_DIR    Where the embedded services keep their data and stack.json is written
//                  (default <repo>/.data). stack.json ({ databaseUrl, redisUrl }) is how
//                  `npm run admin` in another terminal finds this stack's database.
//   MP_APPS        Comma-separated names of the processes to run (default: all), e.g. gateway,otp.
//   WHATSAPP_SIMULATOR_WEBHOOK_URL
//                  Where the WhatsApp simulator posts its status webhooks (default: the gateway's
//                  /webhooks/whatsapp).
//
// Started with an IPC channel (as libs/testing's startStack does), it also stops everything when
// the channel closes, i.e. when the process that started it exits.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EMBEDDED_NAME, startEmbeddedPostgres } from './embedded-postgres';
import { waitForHealth } from './health';
import { nameWidth } from './log-prefixer';
import { migrate } from './migrations';
import { Output, STACK_NAME } from './output';
import { isPortFree } from './ports';
import { GATEWAY, portEnvName, portFor, selectProcesses, STACK_PROCESSES, StackProcess } from './processes';
import { ensureRedis, REDIS_NAME } from './redis';
import { findRepoRoot, reachableHost, readSettings, redactUrl, StackSettings } from './settings';
import { writeStackFile } from './stack-file';
import { describeExit, ExitInfo, ProcessSpec, Supervisor } from './supervisor';

const HEALTH_TIMEOUT_MS = 60_000;
const WHATSAPP_SIMULATOR = 'whatsapp-simulator';
const NEXT_COMMAND = 'npm run --silent admin -- company:create --name Acme --balance 10';
const USER_COMMAND = "npm run --silent admin -- user:create --company <company_id> --role owner --email you@example.com --password '<10+ characters>'";

interface Stack {
  settings: StackSettings;
  processes: StackProcess[];
  output: Output;
  supervisor: Supervisor;
}

interface Services {
  databaseUrl: string;
  redisUrl: string;
}

/** Stops everything once, whatever asked first (a signal, a crash, a failed start), then exits. */
class Shutdown {
  private started = false;

  constructor(private readonly stack: () => Stack | undefined) {}

  get requested(): boolean {
    return this.started;
  }

  async run(code: number, reason: string): Promise<void> {
    if (this.started) return;
    this.started = true;
    const stack = this.stack();
    if (code === 0) stack?.output.info(reason);
    else if (stack) stack.output.error(reason);
    else process.stderr.write(`[${STACK_NAME}] error: ${reason}\n`);
    try {
      await stack?.supervisor.stopAll();
      stack?.output.info('stopped');
    } finally {
      process.exit(code);
    }
  }
}

function appSpec(stack: Stack, app: StackProcess, services: Services, port: number): ProcessSpec {
  const { repoRoot, host, logLevel, nodeEnv, queuePrefix } = stack.settings;
  return {
    name: app.name,
    role: 'app',
    command: process.execPath,
    args: [...(app.nodeFlags ?? []), '-r', join(repoRoot, 'tools/runtime/register.js'), resolve(repoRoot, app.entry)],
    cwd: repoRoot,
    env: {
      ...process.env,
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      LOG_LEVEL: logLevel,
      NODE_ENV: nodeEnv,
      HOST: host,
      PORT: String(port),
      ...(queuePrefix ? { QUEUE_PREFIX: queuePrefix } : {}),
      // Local development: webhooks may go to a receiver on this machine, unless the operator says otherwise.
      WEBHOOK_ALLOW_LOOPBACK: process.env['WEBHOOK_ALLOW_LOOPBACK'] || 'true',
      // No load balancer to drain: the gateway stops at once rather than serve 5 s more.
      SHUTDOWN_DRAIN_MS: process.env['SHUTDOWN_DRAIN_MS'] || '0',
      ...(app.name === WHATSAPP_SIMULATOR ? { WHATSAPP_SIMULATOR_WEBHOOK_URL: whatsappWebhookUrl(stack.settings.host) } : {}),
    },
    signalGroup: true,
    afterExitSignal: 'SIGKILL',
  };
}

/** The WhatsApp simulator's status webhooks go to the gateway, as Meta's go to a deployment's. */
function whatsappWebhookUrl(host: string): string {
  const configured = process.env['WHATSAPP_SIMULATOR_WEBHOOK_URL'];
  if (configured) return configured;
  const gateway = STACK_PROCESSES.find((item) => item.name === GATEWAY);
  const port = gateway ? portFor(gateway, process.env) : 3000;
  return `http://${reachableHost(host)}:${port}/webhooks/whatsapp`;
}

/** Starts the apps whose compiled entry exists; returns the gateway's port if it was started. */
async function startApps(stack: Stack, services: Services): Promise<number | undefined> {
  const { settings, output, supervisor } = stack;
  let gatewayPort: number | undefined;
  for (const app of stack.processes) {
    if (!existsSync(resolve(settings.repoRoot, app.entry))) {
      output.warn(`skipping ${app.name}: ${app.entry} does not exist (not written yet, or not built)`);
      continue;
    }
    const port = portFor(app, process.env);
    if (!(await isPortFree(port, settings.host))) {
      throw new Error(`port ${port} for ${app.name} is in use (set ${portEnvName(app.name)} to use another)`);
    }
    supervisor.spawn(appSpec(stack, app, services, port));
    if (app.name === GATEWAY) gatewayPort = port;
  }
  return gatewayPort;
}

async function announceWhenReady(stack: Stack, gatewayPort: number | undefined, shutdown: Shutdown): Promise<void> {
  const { output, settings } = stack;
  if (gatewayPort === undefined) {
    output.warn('the gateway is not running, so there is no API to call');
    return;
  }
  const url = `http://${reachableHost(settings.host)}:${gatewayPort}`;
  if (await waitForHealth(`${url}/health`, HEALTH_TIMEOUT_MS, () => shutdown.requested)) {
    output.info(`ready: the gateway is at ${url} — next, in another terminal: ${NEXT_COMMAND}`);
    output.info(`the console is at ${url}/dashboard/ — sign in as a user made with: ${USER_COMMAND}`);
  } else if (!shutdown.requested) {
    output.warn(`${url}/health has not answered 200 within ${HEALTH_TIMEOUT_MS / 1000} s`);
  }
}

async function bringUp(stack: Stack, shutdown: Shutdown): Promise<void> {
  const { settings, output, supervisor } = stack;
  const databaseUrl = settings.databaseUrl ?? (await startEmbeddedPostgres(settings.dataDir, supervisor, output));
  output.info(`using PostgreSQL at ${redactUrl(databaseUrl)}`);
  const redisUrl = await ensureRedis(settings.redisUrl, settings.dataDir, supervisor, output);
  const file = writeStackFile(settings.dataDir, { databaseUrl, redisUrl });
  output.info(`wrote ${file}`);
  // Migrations hold a session's advisory lock: PostgreSQL itself when the apps go through PgBouncer.
  await migrate(process.env['MIGRATION_DATABASE_URL'] || databaseUrl, output);
  const gatewayPort = await startApps(stack, { databaseUrl, redisUrl });
  await announceWhenReady(stack, gatewayPort, shutdown);
}

function createStack(onUnexpectedExit: (name: string, exit: ExitInfo) => void): Stack {
  const settings = readSettings(process.env, findRepoRoot(__dirname));
  const processes = selectProcesses(STACK_PROCESSES, settings.apps);
  const names = [STACK_NAME, EMBEDDED_NAME, REDIS_NAME, ...processes.map((app) => app.name)];
  const output = new Output(nameWidth(names), process.stdout.isTTY === true);
  return { settings, processes, output, supervisor: new Supervisor(output, onUnexpectedExit) };
}

function main(): void {
  let stack: Stack | undefined;
  const shutdown = new Shutdown(() => stack);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void shutdown.run(0, `${signal} received; stopping`));
  }
  // Started with an IPC channel (by startStack in a test): stop when the parent goes away.
  process.on('disconnect', () => void shutdown.run(0, 'the parent process went away; stopping'));
  process.on('uncaughtException', (error) => void shutdown.run(1, error.stack ?? error.message));
  process.on('unhandledRejection', (error) => void shutdown.run(1, `unhandled rejection: ${String(error)}`));
  try {
    stack = createStack((name, exit) => void shutdown.run(1, `${name} ${describeExit(exit)}; stopping everything`));
  } catch (error) {
    void shutdown.run(1, error instanceof Error ? error.message : String(error));
    return;
  }
  bringUp(stack, shutdown).catch((error: unknown) => {
    if (shutdown.requested) return; // stopping already; the failure is a consequence
    void shutdown.run(1, `could not start the stack: ${error instanceof Error ? error.message : String(error)}`);
  });
}

main();
