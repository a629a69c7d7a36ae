import { loadConfig } from '@mp/config';
import { createHttpApp } from '@mp/http-kit';
import { createLogger } from '@mp/observability';
import { buildDashboardOpenApiDocument } from '../dashboard/dashboard-openapi';
import { DashboardModule } from '../dashboard/dashboard.module';
import { GatewayEnv } from '../gateway.env';
import { GatewayModule } from '../gateway.module';
import { buildOpenApiDocument, serializeOpenApi } from './openapi-document';

/** The gateway's two OpenAPI texts as the code declares them, without connecting to anything: the public API's and the dashboard API's. */
export async function buildGatewayOpenApiTexts(): Promise<{ publicApi: string; dashboardApi: string }> {
  const config = loadConfig(GatewayEnv, {});
  const logger = createLogger({ app: 'openapi', level: 'silent', fd: 2 });
  const app = await createHttpApp(GatewayModule.forRoot(config), { logger, versionAlias: true });
  try {
    return {
      publicApi: serializeOpenApi(buildOpenApiDocument(app, [DashboardModule])),
      dashboardApi: serializeOpenApi(buildDashboardOpenApiDocument(app, DashboardModule)),
    };
  } finally {
    await app.close();
  }
}
