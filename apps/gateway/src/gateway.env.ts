import { Base64Key32, CredentialEnv, DEV_SECRETS, EnvFlag, PrivateInProduction } from '@mp/config';
import { ShutdownDrainMs, ShutdownTimeoutMs } from '@mp/app-runtime';
import { IsInt, IsNumber, Max, Min, MinLength } from 'class-validator';

export class GatewayEnv extends CredentialEnv {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  /** Behind a load balancer: readiness answers 503 this long after SIGTERM before the server stops taking requests. */
  @ShutdownDrainMs()
  SHUTDOWN_DRAIN_MS: number = 5_000;

  /** From SIGTERM; k8s gives the gateway 30 s, 5 of them to its preStop. */
  @ShutdownTimeoutMs()
  SHUTDOWN_TIMEOUT_MS: number = 20_000;

  /** HS256 key of the access tokens POST /auth/token issues. */
  @MinLength(32)
  @PrivateInProduction()
  JWT_SECRET: string = 'dev-only-jwt-secret-change-me-000000000000000';

  /**
   * The longest a verified credential is trusted without the database confirming it again; one in
   * use is re-read in the background once half of this has passed (0 = never cached).
   */
  @IsInt()
  @Min(0)
  @Max(300_000)
  AUTH_CACHE_TTL_MS: number = 10_000;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 20;

  /** HMAC key of stored OTP codes: a code is kept only as HMAC(key, verification id + code). */
  @Base64Key32()
  @PrivateInProduction()
  OTP_HASH_KEY: string = DEV_SECRETS.OTP_HASH_KEY;

  /** AES-256-GCM key of texts that carry a code, wherever they rest; the sms-dispatcher has the same. */
  @Base64Key32()
  @PrivateInProduction()
  OTP_TEXT_KEY: string = DEV_SECRETS.OTP_TEXT_KEY;

  /** The Meta app secret: status webhooks (POST /webhooks/whatsapp) must carry its X-Hub-Signature-256. */
  @MinLength(8)
  @PrivateInProduction()
  WHATSAPP_APP_SECRET: string = DEV_SECRETS.WHATSAPP_APP_SECRET;

  /** What Meta must echo in the subscription handshake (GET /webhooks/whatsapp). */
  @MinLength(8)
  @PrivateInProduction()
  WHATSAPP_VERIFY_TOKEN: string = DEV_SECRETS.WHATSAPP_VERIFY_TOKEN;

  /**
   * A `webhook_url` whose host is a literal loopback (or private) address is refused at send time
   * unless this allows it; the webhook-notifier checks every address on delivery with the same
   * variables, which must have the same values.
   */
  @EnvFlag()
  WEBHOOK_ALLOW_LOOPBACK: boolean = false;

  @EnvFlag()
  WEBHOOK_ALLOW_PRIVATE: boolean = false;

  /**
   * true: a send's `from` must be a number or sender id assigned to the company (or the platform's
   * default, used when a request names none). Either way, one assigned to another company is refused.
   */
  @EnvFlag()
  SENDER_IDS_REGISTERED_ONLY: boolean = false;

  /** A dashboard session with no request for this long ends (fractions allowed: 0.5 is 30 s). */
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.01)
  @Max(1440)
  DASHBOARD_SESSION_IDLE_MINUTES: number = 30;

  /** A dashboard session ends this long after its sign-in, however busy (fractions allowed). */
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0.001)
  @Max(720)
  DASHBOARD_SESSION_MAX_HOURS: number = 12;
}
