import { ReadinessChecks } from '@mp/health';
import { closeHttpServer, drainHttpConnections } from '@mp/http-kit';
import type { Logger, Tracing } from '@mp/observability';
import { QueueWorkerHost } from '@mp/queue-runtime';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { PendingHooks } from './pending-hooks';

export interface ShutdownTiming {
  /** After SIGTERM, how long readiness answers 503 while the server still serves (a load balancer's drain). */
  drainMs: number;
  /** From the signal, the most the whole shutdown may take: past it the process exits 1, naming what hung. */
  timeoutMs: number;
  /** How the process ends (tests pass their own); process.exit by default. */
  exitProcess?: (code: number) => void;
}

/**
 * On SIGTERM or SIGINT, shuts the app down in this order (docs/architecture.md, Shutdown):
 * 1. readiness turns false; after SIGTERM the server keeps serving for `drainMs`, each answer
 *    closing its connection;
 * 2. work stops: the server takes no more requests and answers those in flight, the queue
 *    workers take no more jobs and finish theirs;
 * 3. Nest's hooks: every beforeApplicationShutdown (timers stop, group commits flush, the SMSC
 *    binds unbind), then every onApplicationShutdown (connections to PostgreSQL and Redis close);
 * 4. the spans still buffered are exported (when tracing), and it exits 0. Past `timeoutMs`
 *    from the signal, whatever is still running, it exits 1 and logs the step and the hooks that
 *    had not finished.
 */
export function shutDownGracefully(app: NestFastifyApplication, logger: Logger, timing: ShutdownTiming, tracing?: Tracing): void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) return;
    started = true;
    void shutDown(app, logger, timing, signal, tracing);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

async function shutDown(app: NestFastifyApplication, logger: Logger, timing: ShutdownTiming, signal: NodeJS.Signals, tracing?: Tracing): Promise<void> {
  const hooks = new PendingHooks(app);
  let step = 'readiness';
  const since = Date.now();
  const workers = optional(app, QueueWorkerHost);
  const deadline = setTimeout(() => {
    const jobs = workers?.runningJobs() ?? {};
    logger.error({ msg: 'shutdown did not finish in time: exiting anyway', timeoutMs: timing.timeoutMs, step, hung: hooks.names(), jobs });
    exit(logger, 1, timing.exitProcess);
  }, timing.timeoutMs);
  try {
    logger.info({ msg: 'shutting down', signal, drainMs: signal === 'SIGTERM' ? timing.drainMs : 0, timeoutMs: timing.timeoutMs });
    optional(app, ReadinessChecks)?.stopAccepting();
    drainHttpConnections(app);
    if (signal === 'SIGTERM' && timing.drainMs > 0) {
      step = 'drain';
      await new Promise((wake) => setTimeout(wake, timing.drainMs));
    }
    step = 'stop taking work';
    await Promise.all([closeHttpServer(app), workers?.stop()]);
    step = 'shutdown hooks';
    await app.close();
    step = 'export spans';
    await tracing?.flush();
    clearTimeout(deadline);
    logger.info({ msg: 'shut down', ms: Date.now() - since });
    exit(logger, 0, timing.exitProcess);
  } catch (error) {
    clearTimeout(deadline);
    logger.error({ msg: 'shutdown failed', step, hung: hooks.names(), err: error });
    exit(logger, 1, timing.exitProcess);
  }
}

/** The app's provider of that class, if it has one (an app without health checks or queue workers has not). */
function optional<T>(app: NestFastifyApplication, type: new (...args: never[]) => T): T | undefined {
  try {
    return app.get(type, { strict: false });
  } catch {
    return undefined;
  }
}

/** Exits once the log lines are written (pino writes asynchronously). */
function exit(logger: Logger, code: number, exitProcess: (code: number) => void = (c) => process.exit(c)): void {
  // Should the flush itself never call back.
  const fallback = setTimeout(() => exitProcess(code), 1_000).unref();
  logger.flush(() => {
    clearTimeout(fallback);
    exitProcess(code);
  });
}
