// How the console talks to the dashboard API: JSON, the session cookie, the session's CSRF token
// on every change, and one place that notices a session that has ended.

/** A failure answered by the API (`{ error, ...fields }`) or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  /** Seconds the API asks to wait (a 429's `retry_after`), if it said. */
  get retryAfterSeconds(): number | undefined {
    const value = this.body['retry_after'];
    return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  body?: unknown;
  /**
   * False for the requests that stand on their own (signing in, reading whether a session exists,
   * accepting an invitation): their 401 is an answer for the page, not a session that ended.
   */
  needsSession?: boolean;
  signal?: AbortSignal;
}

export interface ApiClientOptions {
  /** Where the dashboard API is: `/dashboard/api` in the browser. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Called when a request that needed a session was answered 401: the session has ended. */
  onUnauthorized?: () => void;
}

const CSRF_HEADER = 'X-CSRF-Token';
const CSRF_REFUSAL = 'CSRF token missing or wrong';
const SAFE_METHODS: readonly HttpMethod[] = ['GET'];

export class ApiClient {
  private csrfToken: string | undefined;
  private readonly fetchFn: typeof fetch;

  constructor(private readonly options: ApiClientOptions) {
    this.fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  }

  /** The token of the current session (from its sign-in or GET /session answer); undefined once it ends. */
  setCsrfToken(token: string | undefined): void {
    this.csrfToken = token;
  }

  get<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('GET', path, options);
  }

  post<T>(path: string, body: unknown = {}, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('POST', path, { ...options, body });
  }

  delete<T>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return this.request<T>('DELETE', path, options);
  }

  async request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
    const first = await this.send(method, path, options);
    // Another tab signed in again and the session's token changed: read it once and retry.
    if (first.status === 403 && !SAFE_METHODS.includes(method) && (await errorText(first.clone())) === CSRF_REFUSAL && (await this.refreshCsrfToken())) {
      return this.answer<T>(await this.send(method, path, options), options);
    }
    return this.answer<T>(first, options);
  }

  private async send(method: HttpMethod, path: string, { body, signal }: RequestOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (!SAFE_METHODS.includes(method) && this.csrfToken) headers[CSRF_HEADER] = this.csrfToken;
    try {
      return await this.fetchFn(`${this.options.baseUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'same-origin',
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiError(0, 'The server cannot be reached. Check your connection and try again.');
    }
  }

  private async refreshCsrfToken(): Promise<boolean> {
    const response = await this.send('GET', '/session', {});
    if (!response.ok) return false;
    const session = (await response.json().catch(() => undefined)) as { csrf_token?: unknown } | undefined;
    if (typeof session?.csrf_token !== 'string') return false;
    this.csrfToken = session.csrf_token;
    return true;
  }

  private async answer<T>(response: Response, { needsSession = true }: RequestOptions): Promise<T> {
    const body = await readJson(response);
    if (response.ok) return body as T;
    if (response.status === 401 && needsSession) {
      this.csrfToken = undefined;
      this.options.onUnauthorized?.();
    }
    const fields = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const message = typeof fields['error'] === 'string' && fields['error'] ? fields['error'] : `The server answered ${response.status}.`;
    throw new ApiError(response.status, message, fields);
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

async function errorText(response: Response): Promise<string | undefined> {
  const body = await readJson(response);
  return body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
}
