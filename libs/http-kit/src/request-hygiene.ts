import { HttpStatus } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseSecureJson } from 'secure-json-parse';
import { ApiError, unauthorized } from './api-error';
import { badCharacterError, findBadCharacter, scanJsonText, TOO_DEEP_ERROR } from './request-text';

/** Fastify route config of a route whose body carries credentials (see CredentialsInBody). */
interface HygieneRouteConfig {
  credentialsInBody?: boolean;
}

/**
 * Marks a route whose body carries an API key and secret (`POST /auth/token`): a body with text
 * no credential can hold is answered 401, as a wrong credential is, rather than 400.
 */
export const CredentialsInBody = (): MethodDecorator => RouteConfig({ credentialsInBody: true } satisfies HygieneRouteConfig);

export interface BodyLimits {
  /** Largest body of any route not listed below. */
  defaultBytes: number;
  /** Routes (as declared, e.g. `/sms/send-bulk`) allowed another limit. */
  byRoute: Readonly<Record<string, number>>;
}

/**
 * What every request meets before a handler sees it:
 * - each route's own body limit, enforced while the body is read, however it is framed
 *   (Content-Length or chunked): 413 beyond it;
 * - JSON only (`application/json`, any `+json` type is not it): another Content-Type with a
 *   body is 415;
 * - JSON nested deeper than MAX_JSON_DEPTH: 400, before it is parsed;
 * - the NUL character, or a lone surrogate, in any string of the body, the query or the path:
 *   400 naming the field.
 */
export function installRequestHygiene(fastify: FastifyInstance, limits: BodyLimits): void {
  fastify.addHook('onRoute', (route) => {
    route.bodyLimit = limits.byRoute[route.url] ?? limits.defaultBytes;
  });
  fastify.removeAllContentTypeParsers();
  const largest = Math.max(limits.defaultBytes, ...Object.values(limits.byRoute));
  fastify.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: largest }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
  fastify.addHook('preValidation', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const found = findBadCharacter(request.query, 'query') ?? findBadCharacter(request.params, 'path');
    if (found === undefined) return done();
    void reply.status(HttpStatus.BAD_REQUEST).send({ error: badCharacterError(found.field, found.bad) });
  });
}

/**
 * JSON as Fastify parses it (prototype poisoning refused), with the rules above; an empty body
 * with a JSON Content-Type (curl -X DELETE -H 'content-type: application/json') counts as none.
 */
function parseJsonBody(request: FastifyRequest, text: string): unknown {
  // Kept for endpoints that check a signature over the exact bytes (provider callbacks).
  (request as unknown as { rawBody?: string }).rawBody = text;
  if (text.trim() === '') return undefined;
  const facts = scanJsonText(text);
  if (facts.tooDeep) throw new ApiError(HttpStatus.BAD_REQUEST, TOO_DEEP_ERROR);
  const body = secureJsonParse(text);
  if (!facts.hasNul && !facts.hasSurrogateEscape) return body;
  const found = findBadCharacter(body);
  if (found === undefined) return body;
  if ((request.routeOptions.config as HygieneRouteConfig | undefined)?.credentialsInBody) throw unauthorized();
  throw new ApiError(HttpStatus.BAD_REQUEST, badCharacterError(found.field, found.bad));
}

/** As Fastify's own JSON parser: `__proto__` and `constructor.prototype` keys refused. */
function secureJsonParse(text: string): unknown {
  try {
    return parseSecureJson(text, null, { protoAction: 'error', constructorAction: 'error' });
  } catch (error) {
    if (error instanceof SyntaxError && /prototype|constructor/i.test(error.message)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, 'Malformed JSON body: `__proto__` and `constructor.prototype` keys are refused');
    }
    throw new ApiError(HttpStatus.BAD_REQUEST, 'Malformed JSON body');
  }
}

/**
 * Fastify's answers before routing (a path that is not valid percent-encoded UTF-8, a constraint
 * that failed) in the API's shape: `{ error }`, without echoing the path.
 */
export function frameworkErrorAnswer(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode < 500 ? error.statusCode : HttpStatus.BAD_REQUEST;
  const text = error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL: the path is not valid percent-encoded UTF-8' : `Bad request (${error.code})`;
  void reply.status(status).send({ error: text });
}

/**
 * What Node's HTTP parser refuses before Fastify sees a request (malformed HTTP, headers over
 * 16 KiB, a request that took too long to arrive), written to the socket in the API's shape, as
 * Fastify's own handler does in its.
 */
export function clientErrorAnswer(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request headers are too large (at most 16 KiB)']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive']
        : [400, 'Malformed HTTP request'];
  const body = JSON.stringify({ error: text });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
