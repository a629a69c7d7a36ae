import { WorkerEnv } from '@mp/app-runtime';
import { TrafficPolicy } from '@mp/carrier';
import { Base64Key32, DEV_SECRETS, EnvFlag, PrivateInProduction, RequiredInProduction } from '@mp/config';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';

export class SmsDispatcherEnv extends WorkerEnv {
  override PORT: number = 3102;

  /**
   * More than the other workers': two group commits of submit responses and two of receipts,
   * campaign batches and OTP loads all hold connections at once, and an OTP must not queue for
   * one behind a campaign's.
   */
  override DATABASE_POOL_SIZE: number = 20;

  /**
   * The SMSC (carrier, or the simulator `npm start` runs) that SMS parts are submitted to. Its
   * host and credentials must be given in production: the defaults are the simulator's.
   */
  @IsString()
  @MinLength(1)
  @RequiredInProduction()
  SMSC_HOST: string = '127.0.0.1';

  @IsInt()
  @Min(1)
  @Max(65535)
  SMSC_PORT: number = 2775;

  @IsString()
  @MinLength(1)
  @RequiredInProduction()
  SMSC_SYSTEM_ID: string = 'messaging';

  @IsString()
  @RequiredInProduction()
  SMSC_PASSWORD: string = 'secret';

  /**
   * SMPP over TLS to the SMSC (and to a route's own, below). The SMSC's certificate must verify,
   * against SMSC_TLS_CA when set, else Node's public CAs; one that does not fails the bind, and
   * plain TCP is never tried instead (docs/decisions/0056-smpp-over-tls.md).
   */
  @EnvFlag()
  SMSC_TLS: boolean = false;

  /** A PEM file of the certificates to trust instead of the public CAs: the carrier's CA, or its self-signed certificate. */
  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_TLS_CA?: string;

  /** The name the SMSC's certificate must be issued to, when it is not SMSC_HOST (an IP address, say). */
  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_TLS_SERVERNAME?: string;

  /** false accepts any certificate: encrypted, but anyone in the path could pose as the SMSC. */
  @EnvFlag()
  SMSC_TLS_REJECT_UNAUTHORIZED: boolean = true;

  /**
   * A route may have an SMSC of its own (`SMSC_STANDARD_*`, `SMSC_PREMIUM_*`); a route without
   * one, and `auto` always, uses the SMSC above. Port, system id and password default to the
   * SMSC above's.
   */
  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_STANDARD_HOST?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  SMSC_STANDARD_PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_STANDARD_SYSTEM_ID?: string;

  @IsOptional()
  @IsString()
  SMSC_STANDARD_PASSWORD?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_PREMIUM_HOST?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(65535)
  SMSC_PREMIUM_PORT?: number;

  @IsOptional()
  @IsString()
  @MinLength(1)
  SMSC_PREMIUM_SYSTEM_ID?: string;

  @IsOptional()
  @IsString()
  SMSC_PREMIUM_PASSWORD?: string;

  /**
   * Where the carriers come from. `database` (the default): the carriers and routes operators
   * manage with `admin carrier:*` and `route:*`, the SMSC_* variables creating the `default`
   * carrier when none exists yet, changes applied within CARRIER_POLL_MS. `environment`: the
   * SMSC_* carriers only, each on its routes' catch-all, as before carriers were data (for stacks
   * sharing a database with others, like the e2e tests; decision 0057).
   */
  @IsIn(['database', 'environment'])
  CARRIERS_FROM: 'database' | 'environment' = 'database';

  /** How often the routing version is read; when it moved, carriers and routes are read again and binds opened or closed. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  CARRIER_POLL_MS: number = 2_000;

  /** Resubmits of a part to the same carrier after throttling or a temporary error before the next carrier is tried. */
  @IsInt()
  @Min(0)
  @Max(10)
  CARRIER_RETRY_BUDGET: number = 0;

  /** Parallel binds to each SMSC; parts are spread over them. */
  @IsInt()
  @Min(1)
  @Max(32)
  SMPP_BINDS: number = 2;

  /**
   * Outstanding submit_sm per bind. Binds × window over the round trip bounds a bind's rate, and
   * on a loaded machine the round trip grows to several milliseconds
   * (docs/decisions/0013-smpp-window-50.md). Set it to what the carrier allows.
   */
  @IsInt()
  @Min(1)
  @Max(1000)
  SMPP_WINDOW: number = 50;

  /**
   * Parts sent (or waiting for a bind's window) whose submit_sm_resp is not yet recorded, at most:
   * what a crash can make the next dispatcher send again (with the same user_message_reference,
   * for a carrier's duplicate filter). The traffic policy's `unrecorded.max` (TrafficPolicy).
   */
  @IsInt()
  @Min(1)
  @Max(100_000)
  SUBMIT_MAX_UNRECORDED: number = TrafficPolicy.DEFAULTS.unrecorded.max;

  /** submit_sm per second per bind that the carrier allows; 0 = unlimited. */
  @IsInt()
  @Min(0)
  @Max(100_000)
  SMPP_MAX_PER_SECOND: number = 0;

  /**
   * Campaign parts a second this dispatcher submits while OTPs or single sends flow; 0 = no limit.
   * The traffic policy's `campaigns.pacePerSecond` (TrafficPolicy; the measurements behind it in
   * docs/decisions/0034-campaign-pace-while-others-flow.md).
   */
  @IsInt()
  @Min(0)
  @Max(100_000)
  CAMPAIGN_PACE_WHILE_OTHERS_FLOW: number = TrafficPolicy.DEFAULTS.campaigns.pacePerSecond;

  /** How often committed-but-unqueued outbox jobs are looked for. */
  @IsInt()
  @Min(100)
  @Max(600_000)
  OUTBOX_SWEEP_MS: number = 5_000;

  /**
   * How long a submitted part waits for its delivery receipt before it is recorded expired
   * (`no-receipt`); carriers keep an undelivered SMS for 48–72 hours.
   */
  @IsInt()
  @Min(1)
  @Max(30 * 24 * 60)
  RECEIPT_TIMEOUT_MINUTES: number = 72 * 60;

  /** AES-256-GCM key that opens OTP texts just before submit_sm; the gateway seals with the same. */
  @Base64Key32()
  @PrivateInProduction()
  OTP_TEXT_KEY: string = DEV_SECRETS.OTP_TEXT_KEY;

  /**
   * The operator's own opt-out keywords, comma-separated (e.g. `STOPP,DESINSCRIRE`): an inbound
   * message whose whole text is one adds its sender to the company's suppression list as STOP
   * does. The standard ones (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, ARRET,
   * TD) always apply.
   */
  @IsString()
  OPT_OUT_KEYWORDS: string = '';
}

/** OPT_OUT_KEYWORDS as a list. */
export function extraOptOutKeywords(config: Pick<SmsDispatcherEnv, 'OPT_OUT_KEYWORDS'>): string[] {
  return config.OPT_OUT_KEYWORDS.split(',')
    .map((keyword) => keyword.trim())
    .filter((keyword) => keyword.length > 0);
}
