import { enableLogContext } from '../log-context';
import { markTracingOn } from './spans';
import { tracingWanted, type TracingSettings } from './tracing-settings';

/** What a process that traces does as it stops: export the spans still buffered. */
export interface Tracing {
  flush(): Promise<void>;
}

const NOT_TRACING: Tracing = { flush: () => Promise.resolve() };

/**
 * Starts exporting spans over OTLP/HTTP (JSON) when the settings ask for it (tracingWanted), as
 * service `app`; else does nothing and loads nothing. The exporter reads the standard
 * OTEL_EXPORTER_OTLP_* variables itself (endpoint, headers, timeout), the batch processor the
 * OTEL_BSP_* ones, the sampler OTEL_TRACES_SAMPLER. Turns the log context on: spans follow the
 * work through the same AsyncLocalStorage, and every log line then names its trace.
 */
export function startTracing(app: string, settings: TracingSettings): Tracing {
  if (!tracingWanted(settings)) return NOT_TRACING;
  // Loaded only here: a process that does not trace never reads the SDK.
  const { NodeTracerProvider } = require('@opentelemetry/sdk-trace-node') as typeof import('@opentelemetry/sdk-trace-node');
  const { BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { OTLPTraceExporter } = require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { ATTR_SERVICE_NAME } = require('@opentelemetry/semantic-conventions') as typeof import('@opentelemetry/semantic-conventions');
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: app, 'process.pid': process.pid }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  enableLogContext();
  markTracingOn();
  return { flush: () => provider.forceFlush() };
}
