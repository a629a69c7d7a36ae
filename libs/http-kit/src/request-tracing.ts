import { contextOfHeaders, failSpan, SpanKind, startSpan, withSpan, type Span } from '@mp/observability';
import { ATTR_HTTP_REQUEST_METHOD, ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_HTTP_ROUTE, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Probes and scrapes, answered all day long: no trace is worth their spans. */
const UNTRACED = /^\/(health|metrics)(\/|$|\?)/;

const spans = new WeakMap<FastifyRequest, Span>();

/**
 * A server span per request (continuing the caller's `traceparent`, if any), active while the
 * request is served, so that what it commits and queues continues its trace. Installed only
 * while tracing (createHttpApp), before the hook that sets the log context.
 */
export function installRequestTracing(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    if (UNTRACED.test(request.url)) return done();
    const route = request.routeOptions.url;
    const span = startSpan(route ? `${request.method} ${route}` : request.method, {
      kind: SpanKind.SERVER,
      parent: contextOfHeaders(request.headers),
      attributes: {
        [ATTR_HTTP_REQUEST_METHOD]: request.method,
        [ATTR_URL_PATH]: request.url.split('?')[0],
        ...(route ? { [ATTR_HTTP_ROUTE]: route } : {}),
        'http.request.id': request.id,
      },
    });
    if (!span) return done();
    spans.set(request, span);
    withSpan(span, done);
  });
  fastify.addHook('onError', (request, _reply, error, done) => {
    failSpan(spans.get(request), error);
    done();
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span) {
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, reply.statusCode);
      if (reply.statusCode >= 500) failSpan(span, new Error(`answered ${reply.statusCode}`));
      span.end();
      spans.delete(request);
    }
    done();
  });
}
