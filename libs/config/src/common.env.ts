import { IsIn, IsString, Matches, MinLength, ValidateBy, ValidationOptions } from 'class-validator';
import { wasGiven } from './load-config';
import { localStackDatabaseUrl } from './local-stack';

export const NODE_ENVS = ['development', 'test', 'production'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** Development-only secrets: fine on a laptop, refused when NODE_ENV=production. */
export const DEV_SECRETS = {
  API_KEY_PEPPER: 'dev-only-api-key-pepper-change-me-0000000000',
  JWT_SECRET: 'dev-only-jwt-secret-change-me-000000000000000',
  // 32 bytes each, base64: what the OTP keys must be.
  OTP_HASH_KEY: 'ZGV2LW9ubHktb3RwLWhhc2gta2V5LWNoYW5nZS1tZSE=',
  OTP_TEXT_KEY: 'ZGV2LW9ubHktb3RwLXRleHQta2V5LWNoYW5nZS1tZSE=',
  // The WhatsApp Cloud API: the access token the otp app sends with, the app secret Meta signs
  // status webhooks with (X-Hub-Signature-256), and the token of the subscription handshake.
  // The whatsapp-simulator expects and uses the same development values.
  WHATSAPP_ACCESS_TOKEN: 'dev-only-whatsapp-access-token',
  WHATSAPP_APP_SECRET: 'dev-only-whatsapp-app-secret',
  WHATSAPP_VERIFY_TOKEN: 'dev-only-whatsapp-verify-token',
} as const;

/**
 * `none`: the apps connect to PostgreSQL (or a pooler in session mode). `pgbouncer-transaction`:
 * to PgBouncer in transaction pooling mode, so no statement is kept prepared on a connection and
 * nothing relies on a session across transactions (docs/decisions/0045-redis-cluster-and-pgbouncer.md).
 */
export const DATABASE_POOLERS = ['none', 'pgbouncer-transaction'] as const;

/** In a Redis Cluster (REDIS_URL redis+cluster://) the prefix must be a hash tag: one script's keys must share a slot. */
function HashTagInCluster(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hashTagInCluster',
      validator: {
        validate: (value, args) => !/^rediss?\+cluster:/.test(String((args?.object as { REDIS_URL?: string }).REDIS_URL)) || /^\{.+\}$/.test(String(value)),
        defaultMessage: () => 'must be a hash tag such as {mp} when REDIS_URL is a redis+cluster:// URL',
      },
    },
    options,
  );
}

/** A 32-byte key written in base64 (`openssl rand -base64 32`). */
export function Base64Key32(): PropertyDecorator {
  return Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'must be 32 bytes in base64 (openssl rand -base64 32)' });
}

const devSecretValues: readonly string[] = Object.values(DEV_SECRETS);

/** A secret with a development default must be given a private value when NODE_ENV=production. */
export function PrivateInProduction(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'privateInProduction',
      validator: {
        validate: (value, args) => (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' || !devSecretValues.includes(String(value)),
        defaultMessage: () => 'must be set to a private value when NODE_ENV=production',
      },
    },
    options,
  );
}

/**
 * A setting whose default only fits a developer machine (a local address, a test id) must be set
 * explicitly when NODE_ENV=production: the default is refused there, even where it would parse.
 */
export function RequiredInProduction(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'requiredInProduction',
      validator: {
        validate: (_value, args) => (args?.object as { NODE_ENV?: string }).NODE_ENV !== 'production' || wasGiven(args?.object as object, args?.property ?? ''),
        defaultMessage: () => 'must be set when NODE_ENV=production (the default is for development)',
      },
    },
    options,
  );
}

/** Variables every process of the platform reads: where the data lives and how it logs. */
export class CommonEnv {
  @IsIn(NODE_ENVS)
  NODE_ENV: (typeof NODE_ENVS)[number] = 'development';

  @IsIn(LOG_LEVELS)
  LOG_LEVEL: (typeof LOG_LEVELS)[number] = 'info';

  /**
   * `on`: every log line written while serving a request or a job carries its requestId or
   * jobId/queue. It costs: Node 20 tracks the context through a hook on every promise
   * (docs/decisions/0017-log-context-off-by-default.md). `off` (default): the lines that matter carry them
   * explicitly anyway (request completed, unhandled error, job failed).
   */
  @IsIn(['on', 'off'])
  LOG_CONTEXT: 'on' | 'off' = 'off';

  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  @RequiredInProduction()
  DATABASE_URL: string = localStackDatabaseUrl() ?? 'postgres://postgres@127.0.0.1:5432/messaging';

  /**
   * What DATABASE_URL points at (DATABASE_POOLERS). Behind PgBouncer in transaction pooling mode,
   * the migrations run against PostgreSQL itself (the admin tool's MIGRATION_DATABASE_URL).
   */
  @IsIn(DATABASE_POOLERS)
  DATABASE_POOLER: (typeof DATABASE_POOLERS)[number] = 'none';

  /** One server, or `redis+cluster://host:port,host:port` (`rediss+cluster://` over TLS) for a Redis Cluster. */
  @Matches(/^rediss?(\+cluster)?:\/\/\S+$/, { message: 'must be a redis:// or redis+cluster:// URL' })
  @RequiredInProduction()
  REDIS_URL: string = 'redis://127.0.0.1:6379';

  /** Host the app's HTTP server (API or health) binds to. */
  @IsString()
  HOST: string = '127.0.0.1';
}

/** Where the queues live in Redis: every key starts with this prefix. */
export class QueueEnv extends CommonEnv {
  /** In a Redis Cluster, a hash tag such as `{mp}`: every key then shares one slot (decision 0045). */
  @Matches(/^(\{[A-Za-z0-9_.-]{1,62}\}|[A-Za-z0-9_.-]{1,64})$/, { message: 'must be 1 to 64 letters, digits, _ . or -, or such a name in braces ({mp})' })
  @HashTagInCluster()
  QUEUE_PREFIX: string = 'mp';
}

/** Secrets used to check API credentials; shared by the gateway and the admin tool. */
export class CredentialEnv extends QueueEnv {
  @MinLength(32)
  @PrivateInProduction()
  API_KEY_PEPPER: string = DEV_SECRETS.API_KEY_PEPPER;
}
