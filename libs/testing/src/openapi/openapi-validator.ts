import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

// Checks real answers and webhook requests against an OpenAPI 3.1 document (docs/openapi.json):
// the operation by method and path (path templates; `/v1/` is the same route), the status among
// those the operation lists, the content type, the JSON body against its schema (JSON Schema
// 2020-12, as OpenAPI 3.1 schemas are) and the headers the document says are required.

type Json = Record<string, unknown>;

export interface AnswerToCheck {
  method: string;
  /** The path as requested, with or without a query string. */
  path: string;
  status: number;
  headers: Headers;
  body: string;
}

export interface WebhookToCheck {
  headers: Record<string, string | undefined>;
  body: string;
}

/** What a check found: the operation it matched (null: the document has none), and every problem. */
export interface CheckResult {
  operation: string | null;
  problems: string[];
}

const COMPONENTS_ID = 'urn:openapi:components';
const SCHEMA_REF = '#/components/schemas/';
const BODY_EXCERPT = 2_000;

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  literals: number;
  operation: Json;
}

export class OpenApiValidator {
  private readonly ajv: Ajv2020;
  private readonly coercing: Ajv2020;
  private readonly routes: Route[];
  private readonly compiled = new Map<unknown, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = newAjv(false);
    this.coercing = newAjv(true);
    const schemas = rewriteRefs(((document['components'] as Json | undefined)?.['schemas'] ?? {}) as Json);
    for (const ajv of [this.ajv, this.coercing]) ajv.addSchema({ $id: COMPONENTS_ID, $defs: schemas });
    this.routes = routesOf(document);
  }

  /** Compiles every schema of the document (components, answers, parameters, webhooks): the problems found. */
  schemaProblems(): string[] {
    const problems: string[] = [];
    const schemas = ((this.document['components'] as Json | undefined)?.['schemas'] ?? {}) as Json;
    for (const name of Object.keys(schemas)) problems.push(...this.compileProblems(`components.schemas.${name}`, { $ref: `${SCHEMA_REF}${name}` }));
    for (const [where, schema] of everySchema(this.document)) problems.push(...this.compileProblems(where, schema));
    return problems;
  }

  checkAnswer(answer: AnswerToCheck): CheckResult {
    const path = stripVersion(answer.path.split('?')[0]);
    const route = this.route(answer.method.toLowerCase(), path);
    if (!route) return { operation: null, problems: [] };
    const name = `${answer.method.toUpperCase()} ${route.template}`;
    const responses = (route.operation['responses'] ?? {}) as Json;
    const response = (responses[String(answer.status)] ?? responses[`${String(answer.status)[0]}XX`] ?? responses['default']) as Json | undefined;
    const say = (problem: string) => `${answer.method.toUpperCase()} ${answer.path} → ${answer.status} (${name}): ${problem}\n  body: ${excerpt(answer.body)}`;
    if (!response) return { operation: name, problems: [say(`status ${answer.status} is not documented (documented: ${Object.keys(responses).join(', ')})`)] };
    const problems = [
      ...this.contentProblems(response['content'] as Json | undefined, answer.headers.get('content-type'), answer.body),
      ...this.headerProblems((response['headers'] ?? {}) as Json, (header) => answer.headers.get(header) ?? undefined),
    ];
    return { operation: name, problems: problems.map(say) };
  }

  checkWebhook(webhook: WebhookToCheck): CheckResult {
    const say = (problem: string) => `webhook: ${problem}\n  body: ${excerpt(webhook.body)}`;
    let type: unknown;
    try {
      type = (JSON.parse(webhook.body) as Json)['type'];
    } catch {
      return { operation: null, problems: [say('the body is not JSON')] };
    }
    const operation = (((this.document['webhooks'] ?? {}) as Json)[String(type)] as Json | undefined)?.['post'] as Json | undefined;
    if (!operation) return { operation: null, problems: [say(`event type ${JSON.stringify(type)} is not among the document's webhooks`)] };
    const headers = Object.fromEntries(Object.entries(webhook.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const parameters = ((operation['parameters'] ?? []) as Json[]).filter((parameter) => parameter['in'] === 'header');
    const declared = Object.fromEntries(parameters.map((parameter) => [String(parameter['name']), parameter]));
    const problems = [
      ...this.contentProblems(((operation['requestBody'] ?? {}) as Json)['content'] as Json | undefined, headers['content-type'], webhook.body),
      ...this.headerProblems(declared, (header) => headers[header.toLowerCase()]),
    ];
    return { operation: `webhook ${String(type)}`, problems: problems.map((problem) => say(`${String(type)}: ${problem}`)) };
  }

  private route(method: string, path: string): Route | undefined {
    return this.routes.filter((route) => route.method === method && route.pattern.test(path)).sort((a, b) => b.literals - a.literals)[0];
  }

  private contentProblems(content: Json | undefined, contentType: string | null | undefined, body: string): string[] {
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (!content || Object.keys(content).length === 0)
      return body === '' ? [] : [`a body is sent (${mediaType || 'no content type'}) where the document lists none`];
    const media = content[mediaType] as Json | undefined;
    if (!media) return [`content type ${JSON.stringify(mediaType)} is not documented (documented: ${Object.keys(content).join(', ')})`];
    const schema = media['schema'];
    if (schema === undefined) return [];
    let data: unknown = body;
    if (mediaType === 'application/json' || mediaType.endsWith('+json')) {
      try {
        data = JSON.parse(body);
      } catch {
        return ['the body is not JSON'];
      }
    }
    const validate = this.compile(this.ajv, schema);
    return validate(data) ? [] : [`the body does not match the schema: ${describe(validate.errors)}`];
  }

  private headerProblems(declared: Json, read: (name: string) => string | undefined): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared) as [string, Json][]) {
      const value = read(name);
      if (value === undefined) {
        if (header['required'] === true) problems.push(`header ${name} is required but absent`);
        continue;
      }
      if (header['schema'] === undefined) continue;
      const validate = this.compile(this.coercing, { type: 'object', properties: { [name]: header['schema'] } });
      if (!validate({ [name]: value })) problems.push(`header ${name}: ${JSON.stringify(value)} ${describe(validate.errors)}`);
    }
    return problems;
  }

  private compile(ajv: Ajv2020, schema: unknown): ValidateFunction {
    const key = ajv === this.ajv ? schema : JSON.stringify(schema);
    let validate = this.compiled.get(key);
    if (!validate) this.compiled.set(key, (validate = ajv.compile(rewriteRefs(schema as Json))));
    return validate;
  }

  private compileProblems(where: string, schema: unknown): string[] {
    try {
      this.compile(this.ajv, schema);
      return [];
    } catch (error) {
      return [`${where}: ${error instanceof Error ? error.message : String(error)}`];
    }
  }
}

function newAjv(coerceTypes: boolean): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, coerceTypes });
  addFormats(ajv);
  // OpenAPI's annotation keywords inside schemas.
  ajv.addKeyword({ keyword: 'example' });
  return ajv;
}

/** `#/components/schemas/X` → the schema registered under COMPONENTS_ID. */
function rewriteRefs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll(`"${SCHEMA_REF}`, `"${COMPONENTS_ID}#/$defs/`)) as T;
}

function stripVersion(path: string): string {
  return path === '/v1' ? '/' : path.startsWith('/v1/') ? path.slice(3) : path;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

function routesOf(document: Json): Route[] {
  return Object.entries((document['paths'] ?? {}) as Json).flatMap(([template, item]) =>
    Object.entries(item as Json)
      .filter(([method]) => METHODS.includes(method))
      .map(([method, operation]) => {
        const segments = template.split('/');
        const pattern = segments.map((segment) => (/^\{[^}]+\}$/.test(segment) ? '[^/]+' : escapeRegExp(segment))).join('/');
        return {
          method,
          template,
          pattern: new RegExp(`^${pattern}$`),
          literals: segments.filter((s) => !s.startsWith('{')).length,
          operation: operation as Json,
        };
      }),
  );
}

/** Every schema in an answer, a header or a webhook request: [where, schema]. */
function everySchema(document: Json): [string, unknown][] {
  const found: [string, unknown][] = [];
  const holders = [
    ...Object.entries((document['paths'] ?? {}) as Json),
    ...Object.entries((document['webhooks'] ?? {}) as Json).map(([name, item]) => [`webhooks.${name}`, item] as const),
  ];
  for (const [path, item] of holders) {
    for (const [method, operation] of Object.entries(item as Json)) {
      if (!METHODS.includes(method)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      for (const [status, response] of Object.entries(((operation as Json)['responses'] ?? {}) as Json)) {
        for (const [type, media] of Object.entries(((response as Json)['content'] ?? {}) as Json))
          found.push([`${where} ${status} ${type}`, (media as Json)['schema']]);
        for (const [name, header] of Object.entries(((response as Json)['headers'] ?? {}) as Json))
          found.push([`${where} ${status} header ${name}`, (header as Json)['schema']]);
      }
      for (const [type, media] of Object.entries((((operation as Json)['requestBody'] as Json | undefined)?.['content'] ?? {}) as Json)) {
        found.push([`${where} request ${type}`, (media as Json)['schema']]);
      }
    }
  }
  return found.filter(([, schema]) => schema !== undefined);
}

function describe(errors: ErrorObject[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 8)
    .map(
      (error) =>
        `${error.instancePath || '(root)'} ${error.message ?? error.keyword}${error.params && Object.keys(error.params).length > 0 ? ` ${JSON.stringify(error.params)}` : ''}`,
    )
    .join('; ');
}

function excerpt(body: string): string {
  return body.length > BODY_EXCERPT ? `${body.slice(0, BODY_EXCERPT)}… (${body.length} characters)` : body;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
