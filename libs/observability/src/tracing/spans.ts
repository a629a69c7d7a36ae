import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

export { SpanKind, type Attributes, type Span, type SpanContext } from '@opentelemetry/api';

const TRACER = 'messaging-platform';

/** Set once by startTracing: while false every helper here returns at once, and starts nothing. */
let on = false;

export function markTracingOn(): void {
  on = true;
}

export function tracingOn(): boolean {
  return on;
}

/** The W3C traceparent of the active span (the work under way), for a job it queues; undefined when not tracing. */
export function activeTraceparent(): string | undefined {
  if (!on) return undefined;
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return carrier['traceparent'];
}

/** The context a traceparent names (a job's producer, a request's caller); the root context when it names none. */
export function contextOfTraceparent(traceparent: string | undefined): Context {
  if (!on || !traceparent) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, { traceparent });
}

/** The span context a traceparent names, for a link; undefined when it names none. */
export function spanContextOfTraceparent(traceparent: string | undefined): SpanContext | undefined {
  return trace.getSpanContext(contextOfTraceparent(traceparent));
}

/** traceId and spanId of the active span, for log lines; empty when not tracing. */
export function activeTraceIds(): { traceId?: string; spanId?: string } {
  if (!on) return {};
  const span = trace.getActiveSpan()?.spanContext();
  return span ? { traceId: span.traceId, spanId: span.spanId } : {};
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** The parent; the active context when omitted. */
  parent?: Context;
  links?: Link[];
}

/** Starts a span (not made active); undefined when not tracing. */
export function startSpan(name: string, options: SpanOptions = {}): Span | undefined {
  if (!on) return undefined;
  const { parent = context.active(), ...rest } = options;
  return trace.getTracer(TRACER).startSpan(name, rest, parent);
}

/** Runs work with the span active (its log lines, spans and queued jobs belong to it); just runs it without one. */
export function withSpan<T>(span: Span | undefined, work: () => T): T {
  return span ? context.with(trace.setSpan(context.active(), span), work) : work();
}

/**
 * Runs async work in a span of its own, ended when the work settles; a failure is recorded on
 * the span and rethrown. When not tracing it just runs the work.
 */
export async function inSpan<T>(name: string, options: SpanOptions, work: (span: Span | undefined) => Promise<T>): Promise<T> {
  const span = startSpan(name, options);
  if (!span) return work(undefined);
  try {
    return await withSpan(span, () => work(span));
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}

/** Marks a span failed with the error. */
export function failSpan(span: Span | undefined, error: unknown): void {
  if (!span) return;
  span.recordException(error instanceof Error ? error : String(error));
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
}

/** The context an incoming request's `traceparent` header continues; the root context without one. */
export function contextOfHeaders(headers: Record<string, string | string[] | undefined>): Context {
  if (!on) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** The context of a span remembered earlier (RecentSpans), for work that continues it; the root context without one. */
export function contextOfSpan(span: SpanContext | undefined): Context {
  return span ? trace.setSpanContext(ROOT_CONTEXT, span) : ROOT_CONTEXT;
}
