import { LOG_LEVELS, loadConfig } from '@mp/config';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min } from 'class-validator';

/**
 * The simulator's environment. SMSC_HOST and SMSC_HTTP_PORT fall back to HOST and PORT, which is
 * how `npm start` (tools/dev-stack) hands every process its address and HTTP port.
 */
export class SmscSimulatorEnv {
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /** Address of both servers. */
  @IsString()
  SMSC_HOST: string = '127.0.0.1';

  /** SMPP port (0 = any free port, logged at start). */
  @IsInt()
  @Min(0)
  @Max(65535)
  SMSC_PORT: number = 2775;

  /** SMPP over TLS port, besides the TCP one (0 = any free port); unset = no TLS listener. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(65535)
  SMSC_TLS_PORT?: number;

  /** The TLS listener's certificate and key (PEM files); unset = a self-signed pair made at start. */
  @IsString()
  SMSC_TLS_CERT: string = '';

  @IsString()
  SMSC_TLS_KEY: string = '';

  /** Where a self-signed certificate is written for clients to trust; unset = <tmpdir>/smsc-simulator-<tls port>.pem. */
  @IsString()
  SMSC_TLS_CERT_OUT: string = '';

  /** Inspection API port (0 = any free port). */
  @IsInt()
  @Min(0)
  @Max(65535)
  SMSC_HTTP_PORT: number = 2776;

  /** When set, binds must use this system_id; otherwise any is accepted. */
  @IsString()
  SMSC_SYSTEM_ID: string = '';

  /** When set, binds must use this password; otherwise any is accepted. */
  @IsString()
  SMSC_PASSWORD: string = '';

  @IsInt()
  @Min(0)
  SMSC_RECEIPT_DELAY_MS: number = 200;

  /** Fraction of accepted parts whose receipt says UNDELIV err:001. */
  @IsNumber()
  @Min(0)
  @Max(1)
  SMSC_FAILURE_RATE: number = 0;

  /** Fraction of submit_sm answered ESME_RSUBMITFAIL. */
  @IsNumber()
  @Min(0)
  @Max(1)
  SMSC_REJECT_RATE: number = 0;

  /** Delay before each submit_sm_resp. */
  @IsInt()
  @Min(0)
  SMSC_LATENCY_MS: number = 0;

  /** submit_sm per bind per sliding second above which ESME_RTHROTTLED is answered (0 = unlimited). */
  @IsInt()
  @Min(0)
  SMSC_MAX_RATE_PER_SECOND: number = 0;
}

/** The validated environment; throws ConfigError naming each bad variable. */
export function readSimulatorEnv(env: NodeJS.ProcessEnv): SmscSimulatorEnv {
  return loadConfig(SmscSimulatorEnv, {
    ...env,
    SMSC_HOST: env['SMSC_HOST'] || env['HOST'],
    SMSC_HTTP_PORT: env['SMSC_HTTP_PORT'] || env['PORT'],
  });
}
