import { QueueEnv } from '@mp/config';
import { IsInt, Max, Min } from 'class-validator';
import { ShutdownDrainMs, ShutdownTimeoutMs } from './shutdown.env';

/** Variables of a worker app; each app subclasses it to set its own default health PORT. */
export class WorkerEnv extends QueueEnv {
  /** Port of the app's health server (GET /health/live, /health/ready). */
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3100;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 10;

  /** No load balancer sends a worker work: it stops at once (docs/architecture.md, Shutdown). */
  @ShutdownDrainMs()
  SHUTDOWN_DRAIN_MS: number = 0;

  /** A worker finishes its running jobs first (a campaign batch may take a while): k8s gives it 60 s. */
  @ShutdownTimeoutMs()
  SHUTDOWN_TIMEOUT_MS: number = 45_000;
}
