import { applyDecorators } from '@nestjs/common';
import { IsInt, Max, Min } from 'class-validator';

/**
 * SHUTDOWN_DRAIN_MS: after SIGTERM, how long readiness answers 503 while the app still serves
 * (the time a load balancer takes to stop sending it requests).
 */
export function ShutdownDrainMs(): PropertyDecorator {
  return applyDecorators(IsInt(), Min(0), Max(120_000));
}

/**
 * SHUTDOWN_TIMEOUT_MS: from the signal, the most a shutdown may take before the app exits anyway
 * (code 1), naming what hung; keep it under k8s terminationGracePeriodSeconds less any preStop.
 */
export function ShutdownTimeoutMs(): PropertyDecorator {
  return applyDecorators(IsInt(), Min(1_000), Max(600_000));
}
