import type { DynamicModule, Type } from '@nestjs/common';
import type { RawServerDefault } from 'fastify';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger, runWithLogContext, type Logger } from '@mp/observability';
import { ApiExceptionFilter } from './api-exception.filter';
import { requestIdFrom, stripVersionPrefix } from './request-id';
import { apiValidationPipe } from './validation';

export interface HttpAppOptions {
  logger: Logger;
  /** Largest request body accepted; larger ones get 413. */
  bodyLimitBytes?: number;
  /** Serve every route under /v1/ as well (the public API does; health servers need not). */
  versionAlias?: boolean;
  /** Routes (as declared, e.g. `/sms/send-bulk`) allowed a larger body than `bodyLimitBytes`. */
  largeBodyRoutes?: Readonly<Record<string, number>>;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/**
 * A NestJS app on Fastify with the platform's HTTP conventions: JSON logs with a request id on
 * every line (X-Request-Id in and out), `{ error }` failure bodies, validated DTOs, graceful
 * shutdown on SIGTERM/SIGINT.
 */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  { logger, bodyLimitBytes = DEFAULT_BODY_LIMIT, versionAlias = false, largeBodyRoutes = {} }: HttpAppOptions,
): Promise<NestFastifyApplication> {
  // Fastify enforces the largest limit while reading; the onRequest hook below refuses, from its
  // Content-Length, a body over the limit of its own route before it is read.
  const parserLimit = Math.max(bodyLimitBytes, ...Object.values(largeBodyRoutes));
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: parserLimit,
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers['x-request-id']),
    ...(versionAlias ? { rewriteUrl: (request: IncomingMessage) => stripVersionPrefix(request.url ?? '/') } : {}),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // JSON as Fastify parses it (prototype poisoning refused), except that an empty body with a JSON
  // Content-Type (curl -X DELETE -H 'content-type: application/json') counts as no body.
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  app.useBodyParser<RawServerDefault>('application/json', { bodyLimit: parserLimit }, (request, body, done) => {
    const text = body.toString('utf8');
    // Kept for endpoints that check a signature over the exact bytes (provider callbacks).
    (request as unknown as { rawBody?: string }).rawBody = text;
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    void parseJson(request, text, done);
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    const limit = largeBodyRoutes[request.routeOptions.url ?? ''] ?? bodyLimitBytes;
    if (Number(request.headers['content-length'] ?? 0) > limit) {
      void reply.status(413).send({ error: `Request body is too large (at most ${limit} bytes here)` });
      return;
    }
    runWithLogContext({ requestId: request.id }, done);
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    logger[level]({
      msg: 'request completed',
      requestId: request.id,
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
    });
    done();
  });
  app.useGlobalPipes(apiValidationPipe());
  app.useGlobalFilters(new ApiExceptionFilter());
  app.enableShutdownHooks();
  return app;
}

/** The exact JSON body a request arrived with, for signature checks; undefined when there was none. */
export function rawBodyOf(request: unknown): string | undefined {
  return (request as { rawBody?: string }).rawBody;
}
