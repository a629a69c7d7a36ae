import { DEV_SECRETS, LOG_LEVELS, loadConfig } from '@mp/config';
import { IsIn, IsInt, IsNumber, IsString, Matches, Max, Min, MinLength } from 'class-validator';

/**
 * The simulator's environment. WHATSAPP_SIMULATOR_HOST and _PORT fall back to HOST and PORT, which
 * is how `npm start` (tools/dev-stack) hands every process its address and HTTP port.
 */
export class WhatsappSimulatorEnv {
  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  @IsString()
  WHATSAPP_SIMULATOR_HOST: string = '127.0.0.1';

  /** 0 = any free port, logged at start. */
  @IsInt()
  @Min(0)
  @Max(65535)
  WHATSAPP_SIMULATOR_PORT: number = 2780;

  /** The bearer token senders must present. */
  @MinLength(1)
  WHATSAPP_ACCESS_TOKEN: string = DEV_SECRETS.WHATSAPP_ACCESS_TOKEN;

  /** The key of the X-Hub-Signature-256 HMAC on status webhooks. */
  @MinLength(1)
  WHATSAPP_APP_SECRET: string = DEV_SECRETS.WHATSAPP_APP_SECRET;

  /** Where status webhooks are posted; empty = nowhere. */
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'must be an http:// or https:// URL, or empty' })
  WHATSAPP_SIMULATOR_WEBHOOK_URL: string = '';

  @IsInt()
  @Min(0)
  WHATSAPP_SIMULATOR_STATUS_DELAY_MS: number = 200;

  /** Fraction of accepted messages whose second status is `failed` instead of `delivered`. */
  @IsNumber()
  @Min(0)
  @Max(1)
  WHATSAPP_SIMULATOR_FAILURE_RATE: number = 0;
}

/** The validated environment; throws ConfigError naming each bad variable. */
export function readSimulatorEnv(env: NodeJS.ProcessEnv): WhatsappSimulatorEnv {
  return loadConfig(WhatsappSimulatorEnv, {
    ...env,
    WHATSAPP_SIMULATOR_HOST: env['WHATSAPP_SIMULATOR_HOST'] || env['HOST'],
    WHATSAPP_SIMULATOR_PORT: env['WHATSAPP_SIMULATOR_PORT'] || env['PORT'],
  });
}
