/** The standard OpenTelemetry variables that decide whether this process exports traces. */
export interface TracingSettings {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;
  OTEL_TRACES_EXPORTER?: string;
  OTEL_SDK_DISABLED?: string;
}

/**
 * Traces are exported only when an OTLP endpoint is given and neither `OTEL_SDK_DISABLED=true`
 * nor `OTEL_TRACES_EXPORTER=none` says otherwise. Otherwise nothing of the SDK is loaded.
 */
export function tracingWanted(settings: TracingSettings): boolean {
  if (settings.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (settings.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((name) => name.trim().toLowerCase());
  if (exporters.includes('none') || !exporters.includes('otlp')) return false;
  return Boolean(settings.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || settings.OTEL_EXPORTER_OTLP_ENDPOINT?.trim());
}
