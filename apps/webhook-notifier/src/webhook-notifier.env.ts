import { WorkerEnv } from '@mp/app-runtime';
import { EnvFlag } from '@mp/config';
import { IsInt, IsNumber, Max, Min } from 'class-validator';

export class WebhookNotifierEnv extends WorkerEnv {
  override PORT: number = 3104;

  /** Lets webhooks reach 127.0.0.0/8, ::1 and localhost: local development and tests (npm start sets it). The gateway reads it too. */
  @EnvFlag()
  WEBHOOK_ALLOW_LOOPBACK: boolean = false;

  /** Lets webhooks reach RFC 1918, CGNAT and IPv6 ULA addresses: receivers on a private network. The gateway reads it too. */
  @EnvFlag()
  WEBHOOK_ALLOW_PRIVATE: boolean = false;

  /** How long one attempt may take, DNS and response included. */
  @IsInt()
  @Min(100)
  @Max(120_000)
  WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** Multiplies every retry delay (about 40 hours in all at 1): small for tests (0.0001: about 15 s), larger to retry longer. */
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.0001)
  @Max(100)
  WEBHOOK_RETRY_SCALE: number = 1;

  /** How often pending deliveries whose job was lost are looked for. */
  @IsInt()
  @Min(100)
  @Max(3_600_000)
  WEBHOOK_SWEEP_MS: number = 30_000;

  /** How far past its due time a pending delivery must be before its job is taken as lost. */
  @IsInt()
  @Min(0)
  @Max(86_400_000)
  WEBHOOK_OVERDUE_MS: number = 60_000;
}
