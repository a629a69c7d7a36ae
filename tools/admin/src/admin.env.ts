import { CredentialEnv, EnvFlag } from '@mp/config';
import { IsOptional, Matches } from 'class-validator';

/** The admin tool reads the same variables, with the same defaults, as the apps it manages. */
export class AdminEnv extends CredentialEnv {
  /**
   * PostgreSQL itself, for db:migrate when DATABASE_URL is PgBouncer in transaction mode: the
   * migrations hold a session advisory lock (docs/decisions/0045-redis-cluster-and-pgbouncer.md).
   * Unset: db:migrate uses DATABASE_URL.
   */
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'must be a postgres:// URL' })
  MIGRATION_DATABASE_URL?: string;

  /** As the gateway's: company:settings refuses a loopback (or private) status-callback address unless allowed. */
  @EnvFlag()
  WEBHOOK_ALLOW_LOOPBACK: boolean = false;

  @EnvFlag()
  WEBHOOK_ALLOW_PRIVATE: boolean = false;
}
