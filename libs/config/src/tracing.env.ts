import { IsIn, IsOptional, Matches } from 'class-validator';

/**
 * The standard OpenTelemetry variables that turn tracing on (every app; @mp/observability's
 * startTracing). Read on their own, beside each app's env class, and checked here; the SDK reads
 * them, and its other OTEL_* variables (headers, sampler, batch delays), itself.
 */
export class TracingEnv {
  /** The collector's OTLP/HTTP base address: spans go to `<it>/v1/traces`. Unset: no tracing. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The full address spans are posted to, when it is not `<OTEL_EXPORTER_OTLP_ENDPOINT>/v1/traces`. */
  @IsOptional()
  @Matches(/^https?:\/\/\S+$/, { message: 'must be an http:// or https:// URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `none` turns tracing off whatever the endpoint says. */
  @IsIn(['otlp', 'none'])
  OTEL_TRACES_EXPORTER: 'otlp' | 'none' = 'otlp';

  /** `true` turns tracing off whatever the endpoint says. */
  @IsIn(['true', 'false'])
  OTEL_SDK_DISABLED: 'true' | 'false' = 'false';
}
