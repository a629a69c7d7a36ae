// A stand-in for the dashboard API in unit specs: answers by method and path, records every
// request (with its headers) so a spec can say what the console sent.

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

export type FakeAnswer = { status: number; body?: unknown } | ((request: RecordedRequest) => { status: number; body?: unknown });

export class FakeApi {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, FakeAnswer[]>();

  /** Answers `METHOD /path` (path after /dashboard/api); several answers are given in turn, the last one repeated. */
  on(route: string, ...answers: FakeAnswer[]): this {
    this.routes.set(route, answers);
    return this;
  }

  sent(route: string): RecordedRequest[] {
    return this.requests.filter((request) => `${request.method} ${request.path}` === route);
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input), 'http://console.test');
    const headers = Object.fromEntries(Object.entries((init?.headers ?? {}) as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value]));
    const request: RecordedRequest = {
      method: init?.method ?? 'GET',
      path: url.pathname.replace(/^\/dashboard\/api/, '') + url.search,
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    this.requests.push(request);
    const answers = this.routes.get(`${request.method} ${request.path}`);
    if (!answers || answers.length === 0) return json(404, { error: 'Not found' });
    const next = (answers.length > 1 ? answers.shift() : undefined) ?? answers[0];
    const { status, body } = typeof next === 'function' ? next(request) : next;
    return json(status, body);
  };
}

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

export const OWNER = { id: 'u1', email: 'owner@acme.test', role: 'owner' as const, company: { id: 'c1', name: 'Acme' } };
export const DEVELOPER = { id: 'u2', email: 'dev@acme.test', role: 'developer' as const, company: { id: 'c1', name: 'Acme' } };

export function sessionOf(user: typeof OWNER | typeof DEVELOPER, csrf = 'csrf-1') {
  return { status: 200, body: { user, csrf_token: csrf } };
}
