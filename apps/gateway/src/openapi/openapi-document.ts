import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { closeAnswerSchemas } from './closed-schemas';
import { ErrorBodyDto, RetryAfterBodyDto } from './error-responses';
import { addHttpLayerAnswers } from './http-layer-answers';
import { modulesExcept } from './modules-except';
import { WEBHOOK_MODELS, webhookPathItems } from './webhook-events';

/** Routes open without credentials (decisions.md); every other operation needs one of the schemes. */
const OPEN_OPERATIONS = ['/health', '/health/live', '/health/ready', '/metrics', '/auth/token', '/webhooks/whatsapp'];

const DESCRIPTION = `
SMS, bulk SMS and one-time passwords over HTTP.

**Versioning.** Every path is also served under \`/v1/\` (for example \`/v1/balance\`), by the same handler.

**Authentication.** Every operation except health, \`GET /metrics\` and \`POST /auth/token\` needs one of:
\`X-API-Key\` + \`X-API-Secret\` headers; \`Authorization: Basic base64(key:secret)\`;
\`Authorization: Bearer <token>\` where the token is a JWT from \`POST /auth/token\` or base64(key:secret).
Missing or bad credentials answer 401 \`{ "error": "Unauthorized" }\` with \`WWW-Authenticate\`.

**Envelopes.** Success: HTTP 200, \`{ "status": "success", "message", "data" }\`. Failure: a 4xx/5xx status and
\`{ "error": "<text>" }\` plus the fields documented for that failure; validation failures add
\`details: [{ field, error }]\`. Bad input never answers 500.

**Money** is a JSON number with at most 4 decimals, stored exactly; \`balance\` after a charge is the balance
before minus \`cost\`, to the unit. Currency is the company's (default EUR).

**Webhooks.** Delivery notifications are POSTed to the \`webhook_url\` of a send (messages, campaigns) or of
an application (OTPs), signed per Standard Webhooks; the events and their bodies are listed under \`webhooks\`.

**Request ids.** Send \`X-Request-Id\` to correlate logs; it is echoed back (one is generated otherwise).
`.trim();

/** The public API's document: every module but `excluded` (the dashboard API has a document of its own). */
export function buildOpenApiDocument(app: INestApplication, excluded: readonly object[] = []): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Messaging Platform API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addServer('http://127.0.0.1:3000', 'Local development (npm start)')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'apiKey')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Secret' }, 'apiSecret')
    .addBasicAuth({ type: 'http', scheme: 'basic', description: 'username = API key, password = API secret' }, 'basic')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'JWT from POST /auth/token, or base64(key:secret)' }, 'bearer')
    .build();
  const document = SwaggerModule.createDocument(
    app,
    { ...config, webhooks: webhookPathItems() },
    { extraModels: [ErrorBodyDto, RetryAfterBodyDto, ...WEBHOOK_MODELS], ...(excluded.length > 0 ? { include: modulesExcept(app, excluded) } : {}) },
  );
  document.security = [{ apiKey: [], apiSecret: [] }, { basic: [] }, { bearer: [] }];
  for (const [path, item] of Object.entries(document.paths)) {
    if (!OPEN_OPERATIONS.includes(path)) continue;
    for (const operation of Object.values(item)) {
      if (operation && typeof operation === 'object' && 'responses' in operation) operation.security = [];
    }
  }
  addHttpLayerAnswers(document, OPEN_OPERATIONS);
  closeAnswerSchemas(document);
  return document;
}

/** Stable text for docs/openapi.json: sorted keys, so regenerating without changes gives no diff. */
export function serializeOpenApi(document: OpenAPIObject): string {
  return `${JSON.stringify(sortKeys(document), null, 2)}\n`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
