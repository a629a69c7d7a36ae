import { loadConfigOrExit, TracingEnv } from '@mp/config';
import { createHttpApp } from '@mp/http-kit';
import { createLogger, startTracing } from '@mp/observability';
import { shutDownGracefully } from './graceful-shutdown';
import type { WorkerEnv } from './worker.env';
import { WorkerAppModule, type WorkerAppDefinition } from './worker-app.module';

/** A worker app's whole main: validated config, queue workers, a health server on PORT, and a graceful shutdown. */
export function runWorkerApp(definition: WorkerAppDefinition, envClass: new () => WorkerEnv): void {
  const start = async () => {
    const config = loadConfigOrExit(envClass, definition.name);
    // Before the logger: while tracing, every log line names its trace.
    const tracing = startTracing(definition.name, loadConfigOrExit(TracingEnv, definition.name));
    const logger = createLogger({ app: definition.name, level: config.LOG_LEVEL, context: config.LOG_CONTEXT === 'on' });
    const app = await createHttpApp(WorkerAppModule.forRoot(definition, config), { logger });
    shutDownGracefully(app, logger, { drainMs: config.SHUTDOWN_DRAIN_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, tracing);
    await app.listen(config.PORT, config.HOST);
    logger.info({ msg: `${definition.name} running`, health: `http://${config.HOST}:${config.PORT}/health/ready`, queues: definition.consume });
  };
  start().catch((error: unknown) => {
    process.stderr.write(`${definition.name} failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
