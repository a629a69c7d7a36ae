import type { DynamicModule, Type } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { PinoNestLogger, runWithLogContext, tracingOn, type Logger } from '@mp/observability';
import { ApiExceptionFilter } from './api-exception.filter';
import { requestIdFrom, stripVersionPrefix } from './request-id';
import { clientErrorAnswer, frameworkErrorAnswer, installRequestHygiene } from './request-hygiene';
import { installRequestTracing } from './request-tracing';
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
 * every line (X-Request-Id in and out), `{ error }` failure bodies, validated DTOs. Shutdown
 * is the caller's: `shutDownGracefully` (@mp/app-runtime) closes the server with `closeHttpServer`.
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
  if (tracingOn()) installRequestTracing(fastify);
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
  fastify.addHook('onSend', (_request, reply, _payload, done) => {
    // A kept-alive connection would hold the server's close open until its keep-alive timeout.
    if (closingServers.has(fastify)) void reply.header('connection', 'close');
    done();
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
  return app;
}

/** Servers draining or closing: their answers close their connections. */
const closingServers = new WeakSet<object>();

/**
 * From now on each answer closes its connection (`Connection: close`): clients open new ones,
 * elsewhere once readiness has sent them there, and no kept-alive connection is left idle for the
 * close to cut while a request is on its way.
 */
export function drainHttpConnections(app: NestFastifyApplication): void {
  closingServers.add(app.getHttpAdapter().getInstance());
}

/**
 * Stops taking requests and resolves once those in flight are answered: new connections are
 * refused, each answer closes its connection, and a request that still arrives on an open one is
 * answered 503. Nest's own close of the server, later, then finds nothing to do.
 */
export async function closeHttpServer(app: NestFastifyApplication): Promise<void> {
  drainHttpConnections(app);
  await app.getHttpAdapter().getInstance().close();
}

/** The exact JSON body a request arrived with, for signature checks; undefined when there was none. */
export function rawBodyOf(request: unknown): string | undefined {
  return (request as { rawBody?: string }).rawBody;
}
