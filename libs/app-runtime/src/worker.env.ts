import { QueueEnv } from '@mp/config';
import { IsInt, Max, Min } from 'class-validator';

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
}
