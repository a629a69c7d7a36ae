import { activeTraceparent, markTracingOn } from '@mp/observability';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import Fastify from 'fastify';
import { installRequestTracing } from './request-tracing';

describe('request tracing', () => {
  const exporter = new InMemorySpanExporter();
  const fastify = Fastify();
  beforeAll(async () => {
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    markTracingOn();
    installRequestTracing(fastify);
    fastify.post('/sms/:id', () => Promise.resolve({ traceparent: activeTraceparent() }));
    fastify.get('/broken', () => Promise.reject(new Error('boom')));
    fastify.get('/health/ready', () => Promise.resolve({ traceparent: activeTraceparent() ?? null }));
    await fastify.ready();
  });
  afterAll(() => fastify.close());
  afterEach(() => exporter.reset());

  it("serves each request in a server span that continues the caller's traceparent", async () => {
    const caller = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const response = await fastify.inject({ method: 'POST', url: '/sms/abc?x=1', headers: { traceparent: caller } });
    const [span] = exporter.getFinishedSpans();
    expect(span.name).toBe('POST /sms/:id');
    expect(span.spanContext().traceId).toBe('0af7651916cd43dd8448eb211c80319c');
    expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
    expect(span.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/sms/:id',
      'url.path': '/sms/abc',
      'http.response.status_code': 200,
    });
    expect(response.json()).toEqual({ traceparent: `00-0af7651916cd43dd8448eb211c80319c-${span.spanContext().spanId}-01` });
  });

  it('marks a request that failed', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/broken' });
    expect(response.statusCode).toBe(500);
    const [span] = exporter.getFinishedSpans();
    expect(span.status.code).toBe(2);
    expect(span.attributes['http.response.status_code']).toBe(500);
  });

  it('leaves health probes untraced', async () => {
    const response = await fastify.inject({ method: 'GET', url: '/health/ready' });
    expect(response.json()).toEqual({ traceparent: null });
    expect(exporter.getFinishedSpans()).toEqual([]);
  });
});
