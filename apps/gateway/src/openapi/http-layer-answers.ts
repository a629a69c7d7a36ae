import { getSchemaPath, type OpenAPIObject, type OperationObject, type ResponseObject } from '@nestjs/swagger';
import { ErrorBodyDto, RETRY_AFTER_HEADER, RetryAfterBodyDto } from './error-responses';

// What the HTTP layer answers on every route of a kind, whatever its handler does: the global
// auth guard (401, and 429 from its throttle of failed key checks), a dependency down (503), the
// size limits (413, any route), the JSON parser and request hygiene (400, 415; a NUL in the query
// or path on any route), and the Idempotency-Key
// guard (idempotency.guard.ts) on every POST that needs credentials.

export const IDEMPOTENCY_KEY_PARAMETER = 'IdempotencyKey';

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: false,
  description:
    'Makes a retry safe. Scoped to your company and kept 24 hours: the same key with the same method, path and JSON body (keys in any order) answers the first response again, with `Idempotent-Replayed: true`, and sends and charges nothing more; the same key with another body answers 409. A request that failed (4xx or 5xx) keeps no key, so its retry runs again. A retry that arrives while the first is still running waits for its answer (409 after 15 s). 1 to 255 visible ASCII characters, else 400.',
  schema: { type: 'string' as const, pattern: '^[\\x21-\\x7e]{1,255}$' },
};

export const errorAnswer = (description: string, headers?: ResponseObject['headers']): ResponseObject => ({
  description,
  content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
  ...(headers ? { headers } : {}),
});

export const UNAUTHORIZED_HEADER_DOC = {
  'WWW-Authenticate': {
    required: true,
    description: 'The schemes accepted: `Basic realm="messaging", Bearer realm="messaging"`',
    schema: { type: 'string' as const },
  },
};
const UNAUTHORIZED = errorAnswer('Missing, wrong, revoked or forged credentials: `{ "error": "Unauthorized" }`', UNAUTHORIZED_HEADER_DOC);
const SUSPENDED_TEXT = 'the key is right but an operator suspended its company: `{ "error": "Company suspended: contact the platform operator" }`';
export const SUSPENDED = errorAnswer(`Right credentials, refused: ${SUSPENDED_TEXT}`);
const THROTTLED_TEXT =
  'Too many failed API key checks for this key (10) or from this address (50) within 15 minutes: its credentials are refused, right or wrong, until the oldest failure is 15 minutes old; `{ error, retry_after }` and `Retry-After`';
const THROTTLED: ResponseObject = {
  description: THROTTLED_TEXT,
  content: { 'application/json': { schema: { $ref: getSchemaPath(RetryAfterBodyDto) } } },
  headers: RETRY_AFTER_HEADER,
};
export const UNAVAILABLE = errorAnswer('The database or the queue is unreachable; nothing was charged or half-written', RETRY_AFTER_HEADER);
const MALFORMED = errorAnswer(
  'Malformed JSON (or nested more deeply than 32 levels), a string holding a NUL character (U+0000) or half of a surrogate pair, or a field that is missing or invalid, named in `error`',
);
const NUL_TEXT = 'a NUL character (U+0000) in the query string or the path, named in `error`';
const TEXT_REFUSED = errorAnswer(`Text the API never accepts: ${NUL_TEXT}`);
const TOO_LARGE = errorAnswer(
  'A body over the size limit of this route (1 MiB; 64 MiB for /sms/send-bulk), however it is framed; refused on any route, even one that reads none',
);
const UNSUPPORTED = errorAnswer('A body that is not `application/json`');
const CONFLICT = errorAnswer('The `Idempotency-Key` was used with another body (or its first request is still running after 15 s)');
const REPLAYED = {
  'Idempotent-Replayed': {
    required: false,
    description: '`true` when this is the stored answer of an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** Adds the answers of the HTTP layer to every operation: `open` lists the paths that need no credentials. */
export function addHttpLayerAnswers(document: OpenAPIObject, open: readonly string[]): void {
  document.components = { ...document.components, parameters: { ...document.components?.parameters, [IDEMPOTENCY_KEY_PARAMETER]: IDEMPOTENCY_KEY } };
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const needsCredentials = !open.includes(path);
      addTransportAnswers(operation, method);
      if (needsCredentials) {
        ensure(operation, '401', UNAUTHORIZED);
        orAlso(operation, '403', SUSPENDED, SUSPENDED_TEXT);
        throttled(operation);
        ensure(operation, '503', UNAVAILABLE);
      }
      if (needsCredentials && method === 'post') makeIdempotent(operation);
    }
  }
}

/** What the HTTP layer answers on any route before its handler (the dashboard API's too): 413, 400, 415. */
export function addTransportAnswers(operation: OperationObject, method: string): void {
  // Content-Length over the limit is refused before routing goes further, whatever the method.
  ensure(operation, '413', TOO_LARGE);
  if (method === 'post') ensure(operation, '400', MALFORMED);
  if (method === 'post' || method === 'delete') ensure(operation, '415', UNSUPPORTED);
  // Every route refuses a NUL in its query string or path (installRequestHygiene).
  orAlso(operation, '400', TEXT_REFUSED, NUL_TEXT);
}

export function ensure(operation: OperationObject, status: string, response: ResponseObject): void {
  operation.responses[status] ??= structuredClone(response);
}

/** A route's own answer with this status, whose description also names `also`; or `response` where it has none. */
export function orAlso(operation: OperationObject, status: string, response: ResponseObject, also: string): void {
  const own = operation.responses[status] as ResponseObject | undefined;
  operation.responses[status] = own ? { ...own, description: `${own.description}; or ${also}` } : structuredClone(response);
}

/** The auth throttle's 429, added to a route's own 429 (same body and header) or on its own. */
function throttled(operation: OperationObject): void {
  const own = operation.responses['429'] as ResponseObject | undefined;
  operation.responses['429'] = own ? { ...own, description: `${own.description}; or: ${THROTTLED_TEXT}` } : structuredClone(THROTTLED);
}

function makeIdempotent(operation: OperationObject): void {
  operation.parameters = [...(operation.parameters ?? []), { $ref: `#/components/parameters/${IDEMPOTENCY_KEY_PARAMETER}` }];
  const conflict = operation.responses['409'] as ResponseObject | undefined;
  operation.responses['409'] = conflict ? { ...conflict, description: `${conflict.description}; or: ${CONFLICT.description}` } : structuredClone(CONFLICT);
  const badRequest = operation.responses['400'] as ResponseObject;
  operation.responses['400'] = {
    ...badRequest,
    description: `${badRequest.description}; or an \`Idempotency-Key\` that is not 1 to 255 visible ASCII characters`,
  };
  const ok = operation.responses['200'] as ResponseObject | undefined;
  if (ok) ok.headers = { ...ok.headers, ...REPLAYED };
}
