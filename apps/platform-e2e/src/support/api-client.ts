// The end-to-end specs' way to the gateway: the companies they create, the headers of each
// credential scheme, and one client answering { status, body }. It calls the global fetch, which
// the e2e setup (libs/testing/src/openapi/conformance.ts) wraps to check every answer of a
// gateway against the API reference.
import { admin } from '@mp/testing';

export type Json = Record<string, unknown>;

/** A company's API credentials, as `admin company:create` prints them. */
export interface ApiCredentials {
  api_key: string;
  api_secret: string;
}

/** What `admin company:create` prints: the company, its first key pair and its default application. */
export interface Company extends ApiCredentials {
  company_id: string;
  appid: string;
  app_name: string;
  webhook_secret: string;
}

/** `admin company:create --name <name> --balance <balance>`, and any further options (`--currency`, `USD`). */
export async function createCompany(name: string, balance: string, ...options: string[]): Promise<Company> {
  return (await admin(['company:create', '--name', name, '--balance', balance, ...options])) as unknown as Company;
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** `X-API-Key` and `X-API-Secret`. */
export function keyPairHeaders(credentials: ApiCredentials): Record<string, string> {
  return { 'x-api-key': credentials.api_key, 'x-api-secret': credentials.api_secret };
}

/** `Authorization: Basic base64(key:secret)`. */
export function basicAuthHeaders(key: string, secret: string): Record<string, string> {
  return { authorization: `Basic ${base64(`${key}:${secret}`)}` };
}

/** `Authorization: Bearer base64(key:secret)`. */
export function bearerPairHeaders(key: string, secret: string): Record<string, string> {
  return { authorization: `Bearer ${base64(`${key}:${secret}`)}` };
}

/** `Authorization: Bearer <token>` (a JWT from POST /auth/token, or anything a test forges). */
export function bearerHeaders(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/**
 * What the gateway answered: the status and the parsed body (JSON, else the text; undefined when
 * empty). `headers` and `text` ride along, not enumerable, so that `toEqual({ status, body })`
 * compares what a test is about.
 */
export interface ApiAnswer<B = Json> {
  status: number;
  body: B;
  readonly headers: Headers;
  /** The body as it was received. */
  readonly text: string;
}

export interface RequestOptions {
  /** Sent besides (and over) the client's credentials. */
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A body sent as this exact JSON text: duplicate keys, `\u0000` escapes, nesting JSON.stringify would not write. */
export class JsonText {
  constructor(readonly text: string) {}
}

export const jsonText = (text: string) => new JsonText(text);

/**
 * Requests to a gateway as one company (its key pair headers on every request), or without
 * credentials. Both are read when a request is made, so a spec may make its client before its
 * `beforeAll` starts the stack and creates the company.
 */
export class ApiClient {
  constructor(
    private readonly gatewayUrl: () => string,
    private readonly credentials: () => ApiCredentials | null = () => null,
  ) {}

  /** The same gateway, as another company. */
  as(company: ApiCredentials): ApiClient {
    return new ApiClient(this.gatewayUrl, () => company);
  }

  /** The same gateway, without credentials. */
  anonymous(): ApiClient {
    return new ApiClient(this.gatewayUrl);
  }

  get<B = Json>(path: string, options?: RequestOptions): Promise<ApiAnswer<B>> {
    return this.request<B>('GET', path, undefined, options);
  }

  delete<B = Json>(path: string, options?: RequestOptions): Promise<ApiAnswer<B>> {
    return this.request<B>('DELETE', path, undefined, options);
  }

  /** `body` as JSON (`content-type: application/json`), or a JsonText as it is; none when undefined. */
  post<B = Json>(path: string, body?: unknown, options?: RequestOptions): Promise<ApiAnswer<B>> {
    return this.request<B>('POST', path, body, options);
  }

  async request<B = Json>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<ApiAnswer<B>> {
    const credentials = this.credentials();
    const response = await fetch(`${this.gatewayUrl()}${path}`, {
      method,
      headers: {
        ...(credentials ? keyPairHeaders(credentials) : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: body === undefined ? undefined : body instanceof JsonText ? body.text : JSON.stringify(body),
      signal: options.signal,
    });
    return answerOf<B>(response, await response.text());
  }
}

function answerOf<B>(response: Response, text: string): ApiAnswer<B> {
  const isJson = /\bjson\b/i.test(response.headers.get('content-type') ?? '');
  const body = (text === '' ? undefined : isJson ? JSON.parse(text) : text) as B;
  const answer = { status: response.status, body } as ApiAnswer<B>;
  Object.defineProperties(answer, { headers: { value: response.headers }, text: { value: text } });
  return answer;
}

/** What the SMSC simulator's `GET /messages` lists: every message so far, or those to one number. */
export async function simulatorMessages<T>(simulatorUrl: string, to?: string): Promise<T[]> {
  const query = to === undefined ? '' : `?to=${encodeURIComponent(to)}`;
  return (await (await fetch(`${simulatorUrl}/messages${query}`)).json()) as T[];
}
