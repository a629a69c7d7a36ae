import { loadConfig } from '@mp/config';
import { createHttpApp } from '@mp/http-kit';
import { createLogger } from '@mp/observability';
import { GatewayEnv } from '../gateway.env';
import { GatewayModule } from '../gateway.module';
import { buildOpenApiDocument, serializeOpenApi } from './openapi-document';

/** The OpenAPI text of the gateway as the code declares it, without connecting to anything. */
export async function buildGatewayOpenApiText(): Promise<string> {
  const config = loadConfig(GatewayEnv, {});
  const logger = createLogger({ app: 'openapi', level: 'silent', fd: 2 });
  const app = await createHttpApp(GatewayModule.forRoot(config), { logger, versionAlias: true });
  try {
    return serializeOpenApi(buildOpenApiDocument(app));
  } finally {
    await app.close();
  }
}
