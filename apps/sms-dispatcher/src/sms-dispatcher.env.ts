import { WorkerEnv } from '@mp/app-runtime';
import { IsInt, IsString, Max, Min, MinLength } from 'class-validator';

export class SmsDispatcherEnv extends WorkerEnv {
  override PORT: number = 3102;

  /** The SMSC (carrier, or the simulator `npm start` runs) that SMS parts are submitted to. */
  @IsString()
  @MinLength(1)
  SMSC_HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  SMSC_PORT: number = 2775;

  @IsString()
  @MinLength(1)
  SMSC_SYSTEM_ID: string = 'messaging';

  @IsString()
  SMSC_PASSWORD: string = 'secret';

  /** Parallel binds to the SMSC; parts are spread over them. */
  @IsInt()
  @Min(1)
  @Max(32)
  SMPP_BINDS: number = 2;

  /** Outstanding submit_sm per bind. */
  @IsInt()
  @Min(1)
  @Max(1000)
  SMPP_WINDOW: number = 20;

  /** submit_sm per second per bind that the carrier allows; 0 = unlimited. */
  @IsInt()
  @Min(0)
  @Max(100_000)
  SMPP_MAX_PER_SECOND: number = 0;

  /** How often committed-but-unqueued outbox jobs are looked for. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  OUTBOX_SWEEP_MS: number = 5_000;
}
