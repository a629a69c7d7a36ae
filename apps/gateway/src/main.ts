import fastifyCookie from '@fastify/cookie';
import { shutDownGracefully } from '@mp/app-runtime';
import { loadConfigOrExit, TracingEnv } from '@mp/config';
import { createHttpApp } from '@mp/http-kit';
import { createLogger, startTracing } from '@mp/observability';
import { SwaggerModule } from '@nestjs/swagger';
import { resolve } from 'node:path';
import { CONSOLE_PATH, serveConsole } from './console/serve-console';
import { buildDashboardOpenApiDocument } from './dashboard/dashboard-openapi';
import { DashboardModule } from './dashboard/dashboard.module';
import { GatewayEnv } from './gateway.env';
import { APP_NAME, GatewayModule } from './gateway.module';
import { completeIdempotentRequests } from './idempotency/idempotency-completion';
import { IdempotencyStore } from './idempotency/idempotency.store';
import { buildOpenApiDocument } from './openapi/openapi-document';

async function main(): Promise<void> {
  const config = loadConfigOrExit(GatewayEnv, APP_NAME);
  // Before the logger: while tracing, every log line names its trace.
  const tracing = startTracing(APP_NAME, loadConfigOrExit(TracingEnv, APP_NAME));
  const logger = createLogger({ app: APP_NAME, level: config.LOG_LEVEL, context: config.LOG_CONTEXT === 'on' });
  const app = await createHttpApp(GatewayModule.forRoot(config), {
    logger,
    versionAlias: true,
    // Enough for 1,000,000 recipients in mode 1 (decisions.md); 1 MiB everywhere else.
    // 10,000 opt-outs with their source and time fit in 4 MiB.
    largeBodyRoutes: { '/sms/send-bulk': 64 * 1024 * 1024, '/sms/opt-outs': 4 * 1024 * 1024 },
  });
  completeIdempotentRequests(app.getHttpAdapter().getInstance(), app.get(IdempotencyStore));
  // The dashboard's session cookie; parsed only by the dashboard API's guard (hook: false), never on the public API's requests.
  await app.register(fastifyCookie, { hook: false });
  SwaggerModule.setup('docs', app, buildOpenApiDocument(app, [DashboardModule]), { jsonDocumentUrl: 'docs/openapi.json' });
  SwaggerModule.setup('dashboard/api/docs', app, buildDashboardOpenApiDocument(app, DashboardModule), {
    jsonDocumentUrl: 'dashboard/api/docs/openapi.json',
  });
  // The web console, built by `npm run build` into dist/dashboard (beside dist/out, where this file runs from).
  const consoleServing = await serveConsole(app.getHttpAdapter().getInstance(), resolve(__dirname, '../../../../dashboard'));
  if (!consoleServing.built) logger.warn({ msg: 'the console is not built: /dashboard/ answers 503 until `npm run build` builds it' });
  shutDownGracefully(app, logger, { drainMs: config.SHUTDOWN_DRAIN_MS, timeoutMs: config.SHUTDOWN_TIMEOUT_MS }, tracing);
  await app.listen(config.PORT, config.HOST);
  logger.info({ msg: 'gateway listening', url: `http://${config.HOST}:${config.PORT}`, docs: '/docs', console: CONSOLE_PATH });
}

main().catch((error: unknown) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
