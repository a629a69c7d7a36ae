import { type ClientRequest, type IncomingMessage, request as httpRequest, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { type AddressPolicy, checkWebhookUrl, ForbiddenAddressError, hostOf } from './address-guard';
import { guardedLookup, type ResolveAll } from './guarded-lookup';

export interface WebhookAttemptResult {
  /** A 2xx answer was received in time. */
  ok: boolean;
  /** The receiver's HTTP status, or null when none was received. */
  status: number | null;
  durationMs: number;
  /** Null exactly when ok: 'timeout', 'redirect not followed (302)', 'HTTP 500', 'forbidden address: …', 'connection error: …'. */
  error: string | null;
  /**
   * No later attempt can succeed: the URL, or an address its host resolves to, is refused by the
   * address policy (`forbidden address: …`). Nothing was sent. Every other failure may pass.
   */
  permanent: boolean;
  /** The first 512 bytes of the response body as UTF-8 ('' for an empty one), or null without a response. */
  responseSnippet: string | null;
}

export const WEBHOOK_USER_AGENT = 'messaging-platform-webhooks/1';
export const WEBHOOK_TIMEOUT_MS = 10_000;
const SNIPPET_BYTES = 512;

type Outcome = Omit<WebhookAttemptResult, 'durationMs'>;

/**
 * One delivery attempt: POSTs the body once and reports what happened. Never throws. The URL is
 * checked first, every address the host resolves to is checked when connecting, redirects are
 * never followed, and `timeoutMs` bounds the whole attempt, DNS and response body included.
 */
export async function postWebhook(input: {
  url: string;
  body: string;
  headers: Record<string, string>;
  policy: AddressPolicy;
  timeoutMs?: number;
  /** How the host's addresses are found; the system resolver (`dns.lookup`) by default. */
  resolve?: ResolveAll;
}): Promise<WebhookAttemptResult> {
  const started = performance.now();
  let outcome: Outcome;
  try {
    const url = checkWebhookUrl(input.url, input.policy);
    const options = requestOptions(url, input.body, input.headers, guardedLookup(input.policy, input.resolve));
    outcome = await send(url, input.body, options, input.timeoutMs ?? WEBHOOK_TIMEOUT_MS);
  } catch (error) {
    // The URL refused, or a request Node would not build (a header value with a newline, say).
    outcome = { ok: false, status: null, error: describeError(error, 'invalid request'), responseSnippet: null, permanent: isRefusal(error) };
  }
  return { ...outcome, durationMs: Math.round(performance.now() - started) };
}

function requestOptions(url: URL, body: string, headers: Record<string, string>, lookup: RequestOptions['lookup']): RequestOptions {
  return {
    method: 'POST',
    protocol: url.protocol,
    hostname: hostOf(url),
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    // Ours are set last: header names are case-insensitive, so these win over the caller's.
    headers: {
      ...headers,
      'content-type': 'application/json',
      'user-agent': WEBHOOK_USER_AGENT,
      'content-length': String(Buffer.byteLength(body, 'utf8')),
    },
    lookup,
    // A fresh connection per attempt: nothing pooled outlives the address check it was made under.
    agent: false,
  };
}

function send(url: URL, body: string, options: RequestOptions, timeoutMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const response = new ResponseReader();
    let settled = false;
    const request: ClientRequest = (url.protocol === 'https:' ? httpsRequest : httpRequest)(options);
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => settle(response.failed('timeout')), timeoutMs);
    // The guarded lookup's refusal of a resolved address arrives here, before anything is sent.
    request.on('error', (error) => settle(response.failed(describeError(error), isRefusal(error))));
    request.on('response', (message) => response.read(message, settle));
    request.end(body, 'utf8');
  });
}

/** Keeps the status and the first bytes of the body, and turns them into an outcome. */
class ResponseReader {
  private status: number | null = null;
  private readonly chunks: Buffer[] = [];
  private size = 0;

  read(message: IncomingMessage, settle: (outcome: Outcome) => void): void {
    this.status = message.statusCode ?? null;
    message.on('data', (chunk: Buffer) => {
      this.keep(chunk);
      if (this.size >= SNIPPET_BYTES) settle(this.completed());
    });
    message.on('end', () => settle(this.completed()));
    message.on('error', () => undefined); // 'close' follows and reports it
    message.on('close', () => settle(this.failed('connection error: the response was cut short')));
  }

  failed(error: string, permanent = false): Outcome {
    return { ok: false, status: this.status, error, responseSnippet: this.snippet(), permanent };
  }

  private completed(): Outcome {
    const status = this.status ?? 0;
    if (status >= 200 && status < 300) return { ok: true, status, error: null, responseSnippet: this.snippet(), permanent: false };
    if (status >= 300 && status < 400) return this.failed(`redirect not followed (${status})`);
    return this.failed(`HTTP ${status}`);
  }

  private keep(chunk: Buffer): void {
    if (this.size < SNIPPET_BYTES) this.chunks.push(chunk.subarray(0, SNIPPET_BYTES - this.size));
    this.size += chunk.length;
  }

  private snippet(): string | null {
    return this.status === null ? null : Buffer.concat(this.chunks).toString('utf8');
  }
}

function isRefusal(error: unknown): boolean {
  return error instanceof ForbiddenAddressError;
}

function describeError(error: unknown, kind = 'connection error'): string {
  if (error instanceof ForbiddenAddressError) return `forbidden address: ${error.message}`;
  // Not `instanceof Error`: Node's own errors come from another realm under Jest.
  const { message, code } = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; code?: unknown };
  const text = [message, code].find((value): value is string => typeof value === 'string' && value !== '');
  return `${kind}: ${text ?? String(error)}`;
}
