import type { DynamicModule, Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger, runWithLogContext, type Logger } from '@mp/observability';
import { ApiExceptionFilter } from './api-exception.filter';
import { requestIdFrom, stripVersionPrefix } from './request-id';
import { clientErrorAnswer, frameworkErrorAnswer, installRequestHygiene } from './request-hygiene';
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
/** Longer than any URL Node reads (its headers, the request line included, stop at 16 KiB). */
const MAX_PATH_PARAMETER_LENGTH = 16 * 1024;

/**
 * A NestJS app on Fastify with the platform's HTTP conventions: JSON logs with a request id on
 * every line (X-Request-Id in and out), `{ error }` failure bodies, validated DTOs, graceful
 * shutdown on SIGTERM/SIGINT.
 */
export async function createHttpApp(
  module: Type<unknown> | DynamicModule,
  { logger, bodyLimitBytes = DEFAULT_BODY_LIMIT, versionAlias = false, largeBodyRoutes = {} }: HttpAppOptions,
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    logger: false,
    bodyLimit: bodyLimitBytes,
    // An id longer than Fastify's 100 characters is no id: the route answers it 404 in the API's
    // shape, where the router would answer 414 in its own (echoing the path).
    routerOptions: { maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: frameworkErrorAnswer,
    clientErrorHandler: clientErrorAnswer,
    genReqId: (request: IncomingMessage) => requestIdFrom(request.headers['x-request-id']),
    ...(versionAlias ? { rewriteUrl: (request: IncomingMessage) => stripVersionPrefix(request.url ?? '/') } : {}),
  });
  // Nest's own parsers (JSON, urlencoded) are replaced: the API reads JSON only, with its rules.
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  installRequestHygiene(fastify, { defaultBytes: bodyLimitBytes, byRoute: largeBodyRoutes });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    // Refused before the body is read when Content-Length says so; a chunked body is cut off by
    // the route's bodyLimit while it is read (installRequestHygiene).
    const limit = request.routeOptions.bodyLimit ?? bodyLimitBytes;
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
