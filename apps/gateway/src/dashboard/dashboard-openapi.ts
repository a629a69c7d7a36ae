import type { INestApplication } from '@nestjs/common';
import { ApiResponse, DocumentBuilder, SwaggerModule, type ApiQueryOptions, type OpenAPIObject, type OperationObject } from '@nestjs/swagger';
import { closeAnswerSchemas } from '../openapi/closed-schemas';
import { ErrorBodyDto, RetryAfterBodyDto } from '../openapi/error-responses';
import { addTransportAnswers, ensure, errorAnswer, orAlso, UNAVAILABLE } from '../openapi/http-layer-answers';
import { SESSION_COOKIE } from './session-cookie';

/** The dashboard API's routes that need no session (and so no CSRF token). */
const OPEN_OPERATIONS = ['post /dashboard/api/session', 'get /dashboard/api/session', 'post /dashboard/api/invitations/{token}/accept'];
const STATE_CHANGING = ['post', 'put', 'patch', 'delete'];

export const COMPANY_ID_QUERY: ApiQueryOptions = {
  name: 'company_id',
  required: false,
  description: "Operators only (and required for them): the company acted on. A company's own users may leave it out or give their own.",
  schema: { type: 'string', format: 'uuid' },
};

export const ApiWrongPassword = () =>
  ApiResponse({ status: 401, type: ErrorBodyDto, description: 'No account has this email and password: `{ "error": "Email or password is wrong" }`' });
export const ApiGone = (description: string) => ApiResponse({ status: 410, type: ErrorBodyDto, description });
export const ApiRoleRefused = () =>
  ApiResponse({ status: 403, type: ErrorBodyDto, description: 'The user’s role does not allow this: `{ "error": "Your role does not allow this" }`' });

const NOT_SIGNED_IN = errorAnswer('No live session (no cookie, signed out, removed, or past the idle or absolute timeout): `{ "error": "Not signed in" }`');
const CSRF_TEXT = 'no `X-CSRF-Token` header equal to the session’s `csrf_token`: `{ "error": "CSRF token missing or wrong" }`';
const SUSPENDED_TEXT = 'the user’s company is suspended (signing out is still allowed): `{ "error": "Company suspended: contact the platform operator" }`';
const COMPANY_400 = 'an operator without `company_id`, or a query parameter given twice or unknown';
const COMPANY_404 = 'a `company_id` that names no company, or (for a company’s user) another company: `{ "error": "Company not found" }`';

const DESCRIPTION = `
The API of the web console at \`/dashboard/\`, apart from the public API (\`/docs\`): never API keys.

**Sessions.** \`POST /dashboard/api/session\` signs in and sets the \`mp_session\` cookie (HttpOnly, SameSite=Lax,
Path=/dashboard, Secure outside development), a token the server keeps only as a hash. A session ends at sign-out,
at "sign out everywhere", when its user is removed, after \`DASHBOARD_SESSION_IDLE_MINUTES\` (30) without a request,
and \`DASHBOARD_SESSION_MAX_HOURS\` (12) after sign-in. Without a live session: 401 \`{ "error": "Not signed in" }\`, but for
\`GET /dashboard/api/session\`, which answers \`{ "user": null, "csrf_token": null }\` (who is signed in: no one).

**CSRF.** Every POST, PUT, PATCH and DELETE but signing in and accepting an invitation sends \`X-CSRF-Token\`: the
\`csrf_token\` of the session answer. Otherwise 403 \`{ "error": "CSRF token missing or wrong" }\` (checked after the session).

**Roles.** \`owner\` and \`developer\` act on their company; a developer cannot change its members. An \`operator\`
acts on any company, named by \`company_id\`. Another company's resource answers 404, never 403. A user of a company an
operator suspended may sign in and read, but every change but signing out answers 403 \`{ "error": "Company suspended: contact the platform operator" }\`.

**Failures** are \`{ "error": "<text>" }\` plus the fields documented; validation failures add \`details\`.
`.trim();

/** The dashboard API's own OpenAPI document (docs/dashboard-api.json, served at /dashboard/api/docs). */
export function buildDashboardOpenApiDocument(app: INestApplication, dashboardModule: object): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Messaging Platform dashboard API')
    .setDescription(DESCRIPTION)
    .setVersion('1.0')
    .addServer('http://127.0.0.1:3000', 'Local development (npm start)')
    .addCookieAuth(SESSION_COOKIE, { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session token set by sign-in' }, 'session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-CSRF-Token', description: 'The session’s `csrf_token`, on every change' }, 'csrf')
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [dashboardModule as never], extraModels: [ErrorBodyDto, RetryAfterBodyDto] });
  document.security = [{ session: [] }];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item) as [string, OperationObject][]) {
      if (!operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      addTransportAnswers(operation, method);
      const open = OPEN_OPERATIONS.includes(`${method} ${path}`);
      if (open) operation.security = [];
      else if (STATE_CHANGING.includes(method)) operation.security = [{ session: [], csrf: [] }];
      if (!open) ensure(operation, '401', NOT_SIGNED_IN);
      if (!open && STATE_CHANGING.includes(method)) orAlso(operation, '403', errorAnswer(`The request carries ${CSRF_TEXT}`), CSRF_TEXT);
      if (!open && STATE_CHANGING.includes(method)) orAlso(operation, '403', errorAnswer(`Refused: ${SUSPENDED_TEXT}`), SUSPENDED_TEXT);
      if ((operation.parameters ?? []).some((parameter) => 'name' in parameter && parameter.name === 'company_id')) {
        orAlso(operation, '400', errorAnswer(`Refused: ${COMPANY_400}`), COMPANY_400);
        orAlso(operation, '404', errorAnswer(`Not found: ${COMPANY_404}`), COMPANY_404);
      }
      ensure(operation, '503', UNAVAILABLE);
    }
  }
  closeAnswerSchemas(document);
  return document;
}
