import { context, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { currentLogContext, enableLogContext, runWithLogContext } from '../log-context';
import { RecentSpans } from './recent-spans';
import { activeTraceIds, activeTraceparent, contextOfSpan, contextOfTraceparent, inSpan, markTracingOn, startSpan, tracingOn, withSpan } from './spans';
import { startTracing } from './start-tracing';
import { tracingWanted } from './tracing-settings';

describe('tracingWanted', () => {
  it.each([
    [{}, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'console' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'otlp' }, true],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }, false],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'false' }, true],
  ])('%p: %p', (settings, wanted) => {
    expect(tracingWanted(settings)).toBe(wanted);
  });
});

describe('tracing off', () => {
  it('starts nothing without an endpoint, and every helper just runs the work', async () => {
    const tracing = startTracing('test', { OTEL_TRACES_EXPORTER: 'otlp' });
    expect(tracingOn()).toBe(false);
    expect(startSpan('nothing')).toBeUndefined();
    expect(await inSpan('nothing', {}, (span) => Promise.resolve(span))).toBeUndefined();
    expect(activeTraceparent()).toBeUndefined();
    expect(activeTraceIds()).toEqual({});
    await expect(tracing.flush()).resolves.toBeUndefined();
  });
});

describe('tracing on', () => {
  const exporter = new InMemorySpanExporter();
  beforeAll(() => {
    new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }).register();
    markTracingOn();
  });
  afterEach(() => exporter.reset());

  it('hands the active span on as a traceparent, which the work it makes continues', async () => {
    const parent = startSpan('request');
    const traceparent = withSpan(parent, () => activeTraceparent());
    parent?.end();
    expect(traceparent).toBe(`00-${parent?.spanContext().traceId}-${parent?.spanContext().spanId}-01`);
    await inSpan('job', { parent: contextOfTraceparent(traceparent) }, () => Promise.resolve());
    const [request, job] = exporter.getFinishedSpans();
    expect(job.spanContext().traceId).toBe(request.spanContext().traceId);
    expect(job.parentSpanContext?.spanId).toBe(request.spanContext().spanId);
  });

  it('records a failure on the span and rethrows it', async () => {
    await expect(inSpan('fails', {}, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const [span] = exporter.getFinishedSpans();
    expect(span.status).toEqual({ code: 2, message: 'boom' });
    expect(span.events.map((event) => event.name)).toEqual(['exception']);
  });

  it('names the trace of the active span for log lines, and nothing outside one', () => {
    const span = startSpan('work');
    const ids = withSpan(span, () => activeTraceIds());
    span?.end();
    expect(ids).toEqual({ traceId: span?.spanContext().traceId, spanId: span?.spanContext().spanId });
    expect(activeTraceIds()).toEqual({});
  });

  it('continues a remembered span from elsewhere (a receipt after its submit), and starts a root without one', async () => {
    const spans = new RecentSpans(2);
    const submit = startSpan('submit_sm');
    submit?.end();
    spans.remember('carrier-1', submit?.spanContext());
    spans.remember('carrier-2', undefined);
    await inSpan('receipt', { parent: contextOfSpan(spans.find('carrier-1')) }, () => Promise.resolve());
    await inSpan('stray receipt', { parent: contextOfSpan(spans.find('carrier-9')) }, () => Promise.resolve());
    const [, receipt, stray] = exporter.getFinishedSpans();
    expect(receipt.spanContext().traceId).toBe(submit?.spanContext().traceId);
    expect(stray.parentSpanContext).toBeUndefined();
    expect(spans.size).toBe(1);
  });

  it('forgets the oldest spans beyond its capacity', () => {
    const spans = new RecentSpans(2);
    const made = ['a', 'b', 'c'].map((key) => {
      const span = startSpan(key);
      span?.end();
      spans.remember(key, span?.spanContext());
      return span?.spanContext();
    });
    expect([spans.find('a'), spans.find('b'), spans.find('c')]).toEqual([undefined, made[1], made[2]]);
  });

  it('keeps the log context and the trace apart: both follow the work', async () => {
    enableLogContext();
    const span = startSpan('request');
    const seen = await withSpan(span, () =>
      runWithLogContext({ requestId: 'r-1' }, async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return { log: currentLogContext(), span: trace.getSpan(context.active()) };
      }),
    );
    span?.end();
    expect(seen).toEqual({ log: { requestId: 'r-1' }, span });
  });
});
