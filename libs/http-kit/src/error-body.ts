import { HttpException, HttpStatus } from '@nestjs/common';
import { ApiError } from './api-error';

export interface ErrorReply {
  status: number;
  body: { error: string } & Record<string, unknown>;
  headers: Record<string, string>;
}

const FASTIFY_ERRORS: Record<string, (error: { message: string }) => string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: () => 'Malformed JSON body',
  FST_ERR_CTP_EMPTY_JSON_BODY: () => 'Malformed JSON body: the body is empty',
  FST_ERR_CTP_BODY_TOO_LARGE: () => 'Request body is too large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => 'Unsupported Content-Type: send application/json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => 'Content-Length does not match the body',
};

/**
 * Maps anything thrown while serving a request to the interface's failure shape: `{ error }`
 * plus the documented fields, never `status: "success"`, and never a 500 for the caller's input.
 */
export function toErrorReply(exception: unknown): ErrorReply {
  if (exception instanceof ApiError) {
    return { status: exception.getStatus(), body: { error: exception.error, ...exception.fields }, headers: exception.headers };
  }
  if (exception instanceof HttpException && isHealthReport(exception.getResponse())) {
    // Terminus's report has an `error` object of its own (the failed checks): `error` stays text.
    return { status: exception.getStatus(), body: { ...(exception.getResponse() as object), error: 'Not ready' }, headers: {} };
  }
  // Nest wraps Fastify's 4xx errors (body too large, unsupported Content-Type) in an HttpException.
  const fastify = fastifyClientError(exception instanceof HttpException ? exception.cause : exception);
  if (fastify) return fastify;
  if (exception instanceof HttpException) {
    return { status: exception.getStatus(), body: { error: messageOf(exception) }, headers: {} };
  }
  if (isDependencyFailure(exception)) {
    return {
      status: HttpStatus.SERVICE_UNAVAILABLE,
      body: { error: 'Service temporarily unavailable: a dependency (database or queue) is down; nothing was charged' },
      headers: { 'retry-after': '5' },
    };
  }
  if (isJsonSyntaxError(exception)) {
    return { status: HttpStatus.BAD_REQUEST, body: { error: 'Malformed JSON body' }, headers: {} };
  }
  return { status: HttpStatus.INTERNAL_SERVER_ERROR, body: { error: 'Internal server error' }, headers: {} };
}

function fastifyClientError(error: unknown): ErrorReply | undefined {
  const fastify = error as { code?: string; statusCode?: number; message?: string } | undefined;
  if (!fastify?.code?.startsWith('FST_') || typeof fastify.statusCode !== 'number' || fastify.statusCode >= 500) return undefined;
  const describe = FASTIFY_ERRORS[fastify.code];
  const text = describe ? describe({ message: fastify.message ?? '' }) : (fastify.message ?? 'Bad request');
  return { status: fastify.statusCode, body: { error: text }, headers: {} };
}

/** Terminus's 503 carries which dependency is down; keep it for the operator. */
function isHealthReport(response: unknown): boolean {
  return typeof response === 'object' && response !== null && 'details' in response && 'status' in response;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (exception.getStatus() === HttpStatus.NOT_FOUND) return 'Not found';
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown; error?: unknown }).message ?? (response as { error?: unknown }).error;
  if (Array.isArray(message)) return String(message[0]);
  return typeof message === 'string' ? message : exception.message;
}

/** Network errors, PostgreSQL's "cannot connect now" class, and ioredis's connection errors. */
const DEPENDENCY_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '08000',
  '08001',
  '08003',
  '08006',
]);
const DEPENDENCY_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Connection is closed',
  "Stream isn't writeable",
  'Reached the max retries per request limit',
];

export function isDependencyFailure(exception: unknown): boolean {
  if (!(exception instanceof Error)) return false;
  const code = (exception as { code?: unknown }).code;
  if (typeof code === 'string' && DEPENDENCY_CODES.has(code)) return true;
  const driverError = (exception as { driverError?: unknown }).driverError;
  if (driverError && driverError !== exception && isDependencyFailure(driverError)) return true;
  return DEPENDENCY_MESSAGES.some((text) => exception.message.includes(text));
}

function isJsonSyntaxError(exception: unknown): boolean {
  return exception instanceof SyntaxError && (exception as { statusCode?: number }).statusCode === 400;
}
