// A browser's view of the dashboard API, for the end-to-end specs: it keeps the session cookie
// the gateway sets (as a browser would, for Path=/dashboard) and the session's CSRF token, and
// sends both; a test may leave either out, or send another. Answers are checked against
// docs/dashboard-api.json by the e2e setup, as every gateway answer is against its reference.
import { randomBytes } from 'node:crypto';
import { admin } from '@mp/testing';
import type { ApiAnswer, Json } from './api-client';

export const DASHBOARD_API = '/dashboard/api';
export const PASSWORD = 'correct horse battery';

/** `admin user:create`: a user of the company (owner unless `role` says), or an operator (`company` null). */
export async function createUser(company: string | null, email: string, role?: 'owner' | 'developer'): Promise<Json> {
  const where = company === null ? ['--operator'] : ['--company', company, ...(role ? ['--role', role] : [])];
  return admin(['user:create', ...where, '--email', email, '--password', PASSWORD]);
}

let people = 0;
/** Jest loads this module again for each spec file, in the same worker process: the pid alone would repeat. */
const SPEC_FILE = randomBytes(4).toString('hex');
/** An email no other test of the run uses. */
export const uniqueEmail = (name: string) => `${name}-${process.pid}-${SPEC_FILE}-${++people}@example.com`;

export interface DashboardRequestOptions {
  /** The CSRF token to send: the session's by default, none with null. */
  csrf?: string | null;
  headers?: Record<string, string>;
  /** Send no cookie. */
  anonymous?: boolean;
}

export class DashboardClient {
  /** The `mp_session` cookie's value, as the last Set-Cookie left it. */
  token: string | undefined;
  csrfToken: string | undefined;

  constructor(
    private readonly gatewayUrl: () => string,
    private readonly headers: Record<string, string> = {},
  ) {}

  /** Signs in: keeps the cookie and the CSRF token of a 200. */
  async signIn(email: string, password = PASSWORD): Promise<ApiAnswer> {
    return this.request('POST', '/session', { email, password }, { csrf: null });
  }

  get(path: string, options?: DashboardRequestOptions): Promise<ApiAnswer> {
    return this.request('GET', path, undefined, options);
  }

  post(path: string, body?: unknown, options?: DashboardRequestOptions): Promise<ApiAnswer> {
    return this.request('POST', path, body, options);
  }

  delete(path: string, options?: DashboardRequestOptions): Promise<ApiAnswer> {
    return this.request('DELETE', path, undefined, options);
  }

  async request(method: string, path: string, body?: unknown, options: DashboardRequestOptions = {}): Promise<ApiAnswer> {
    const csrf = options.csrf === undefined ? this.csrfToken : options.csrf;
    const response = await fetch(`${this.gatewayUrl()}${DASHBOARD_API}${path}`, {
      method,
      headers: {
        ...this.headers,
        ...(this.token !== undefined && !options.anonymous ? { cookie: `mp_session=${this.token}` } : {}),
        ...(csrf ? { 'x-csrf-token': csrf } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    const parsed = (text === '' ? undefined : JSON.parse(text)) as Json;
    const answer = { status: response.status, body: parsed } as ApiAnswer;
    Object.defineProperties(answer, { headers: { value: response.headers }, text: { value: text } });
    const cookie = sessionSetCookie(response.headers);
    if (cookie !== undefined) this.token = /Max-Age=0\b/i.test(cookie) ? undefined : /^mp_session=([^;]*)/.exec(cookie)?.[1];
    if (response.status === 200 && typeof parsed?.['csrf_token'] === 'string') this.csrfToken = parsed['csrf_token'];
    return answer;
  }
}

/** The Set-Cookie of the session cookie in an answer, if any. */
export function sessionSetCookie(headers: Headers): string | undefined {
  return headers.getSetCookie().find((cookie) => cookie.startsWith('mp_session='));
}
