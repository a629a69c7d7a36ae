import { OpenApiValidator } from './openapi-validator';

const json = { 'content-type': 'application/json; charset=utf-8' };
const error = { type: 'object', properties: { error: { type: 'string' } }, required: ['error'], additionalProperties: false };

const document = {
  openapi: '3.1.0',
  info: { title: 'test', version: '1' },
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': { description: 'a thing', content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } } },
          '404': { description: 'none', content: { 'application/json': { schema: error } } },
        },
      },
    },
    '/things/special': {
      get: { responses: { '200': { description: 'special', content: { 'text/plain': { schema: { type: 'string', enum: ['special'] } } } } } },
    },
    '/limited': {
      post: {
        responses: {
          '204': { description: 'done' },
          '429': {
            description: 'slow down',
            headers: { 'Retry-After': { required: true, schema: { type: 'integer', minimum: 0 } } },
            content: { 'application/json': { schema: error } },
          },
        },
      },
    },
  },
  webhooks: {
    'thing.made': {
      post: {
        parameters: [{ name: 'webhook-id', in: 'header', required: true, schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/ThingMade' } } } },
        responses: { '2XX': { description: 'ok' } },
      },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: { id: { type: 'string', format: 'uuid' }, size: { type: 'integer' }, note: { type: ['string', 'null'] } },
        required: ['id', 'size', 'note'],
        additionalProperties: false,
      },
      ThingMade: {
        type: 'object',
        properties: { type: { type: 'string', enum: ['thing.made'] }, data: { $ref: '#/components/schemas/Thing' } },
        required: ['type', 'data'],
        additionalProperties: false,
      },
    },
  },
};

const ID = '6f1c1c43-5d0e-4c39-9a47-2b4bb7f4b0a1';
const thing = (fields: Record<string, unknown> = {}) => JSON.stringify({ id: ID, size: 3, note: null, ...fields });

describe('OpenApiValidator', () => {
  const validator = new OpenApiValidator(document);
  const answer = (method: string, path: string, status: number, body: string, headers: Record<string, string> = json) =>
    validator.checkAnswer({ method, path, status, headers: new Headers(headers), body });

  it('accepts an answer as documented, on the path or its /v1/ alias, with a query string', () => {
    expect(answer('GET', `/things/${ID}`, 200, thing())).toEqual({ operation: 'GET /things/{id}', problems: [] });
    expect(answer('GET', `/v1/things/${ID}?x=1`, 200, thing({ note: 'n' }))).toEqual({ operation: 'GET /things/{id}', problems: [] });
  });

  it('matches a literal path before a template', () => {
    expect(answer('GET', '/things/special', 200, 'special', { 'content-type': 'text/plain; charset=utf-8' })).toEqual({
      operation: 'GET /things/special',
      problems: [],
    });
  });

  it('leaves alone what the document has no operation for', () => {
    expect(answer('DELETE', `/things/${ID}`, 404, '{"error":"Not found"}')).toEqual({ operation: null, problems: [] });
    expect(answer('GET', '/elsewhere', 200, '{}')).toEqual({ operation: null, problems: [] });
  });

  it('names an undocumented status, with the method, path and body', () => {
    const [problem] = answer('GET', `/things/${ID}`, 500, '{"error":"Internal server error"}').problems;
    expect(problem).toContain(`GET /things/${ID} → 500 (GET /things/{id}): status 500 is not documented (documented: 200, 404)`);
    expect(problem).toContain('body: {"error":"Internal server error"}');
  });

  it('names a body that does not match: a field missing, one of another type, one more, null where none may be', () => {
    expect(answer('GET', `/things/${ID}`, 200, JSON.stringify({ id: ID, note: null })).problems[0]).toMatch(/must have required property 'size'/);
    expect(answer('GET', `/things/${ID}`, 200, thing({ size: 3.5 })).problems[0]).toMatch(/\/size must be integer/);
    expect(answer('GET', `/things/${ID}`, 200, thing({ colour: 'red' })).problems[0]).toMatch(/must NOT have additional properties.*colour/);
    expect(answer('GET', `/things/${ID}`, 200, thing({ id: 'not-a-uuid' })).problems[0]).toMatch(/\/id must match format "uuid"/);
    expect(answer('GET', `/things/${ID}`, 404, '{"error":null}').problems[0]).toMatch(/\/error must be string/);
  });

  it('names a content type or a body the document does not list, and a body that is not JSON', () => {
    expect(answer('GET', `/things/${ID}`, 200, thing(), { 'content-type': 'text/html' }).problems[0]).toMatch(/content type "text\/html" is not documented/);
    expect(answer('POST', '/limited', 204, '{"done":true}').problems[0]).toMatch(/a body is sent .* where the document lists none/);
    expect(answer('POST', '/limited', 204, '', {}).problems).toEqual([]);
    expect(answer('GET', `/things/${ID}`, 200, '{"id":').problems[0]).toMatch(/the body is not JSON/);
  });

  it('checks the headers the document requires', () => {
    const slow = '{"error":"slow down"}';
    expect(answer('POST', '/limited', 429, slow, { ...json, 'retry-after': '7' }).problems).toEqual([]);
    expect(answer('POST', '/limited', 429, slow).problems[0]).toMatch(/header Retry-After is required but absent/);
    expect(answer('POST', '/limited', 429, slow, { ...json, 'retry-after': 'soon' }).problems[0]).toMatch(/header Retry-After: "soon" .*must be integer/);
  });

  it('checks a webhook against the event its type names, headers included', () => {
    const body = JSON.stringify({ type: 'thing.made', data: JSON.parse(thing()) });
    const headers = { 'Webhook-Id': 'msg_1', 'content-type': 'application/json' };
    expect(validator.checkWebhook({ headers, body })).toEqual({ operation: 'webhook thing.made', problems: [] });
    expect(validator.checkWebhook({ headers: { 'content-type': 'application/json' }, body }).problems[0]).toMatch(/header webhook-id is required but absent/);
    expect(validator.checkWebhook({ headers, body: JSON.stringify({ type: 'thing.made', data: {} }) }).problems[0]).toMatch(
      /\/data must have required property 'id'/,
    );
    expect(validator.checkWebhook({ headers, body: '{"type":"thing.lost"}' }).problems[0]).toMatch(
      /event type "thing.lost" is not among the document's webhooks/,
    );
  });

  it('refuses schemas that are not valid JSON Schema, and finds those with keywords it does not know', () => {
    const withSchema = (Bad: object) => ({ ...document, components: { schemas: { ...document.components.schemas, Bad } } });
    expect(() => new OpenApiValidator(withSchema({ type: 'object', properties: { n: { type: 'integr' } } }))).toThrow(/Bad\/properties\/n\/type/);
    expect(new OpenApiValidator(withSchema({ type: 'string', colour: 'red' })).schemaProblems()).toEqual([
      expect.stringMatching(/^components\.schemas\.Bad: .*colour/),
    ]);
    expect(validator.schemaProblems()).toEqual([]);
  });
});
