import { CredentialEnv, PrivateInProduction } from '@mp/config';
import { IsInt, Max, Min, MinLength } from 'class-validator';

export class GatewayEnv extends CredentialEnv {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  /** HS256 key of the access tokens POST /auth/token issues. */
  @MinLength(32)
  @PrivateInProduction()
  JWT_SECRET: string = 'dev-only-jwt-secret-change-me-000000000000000';

  /** How long a verified credential is trusted without asking the database again (0 = never cached). */
  @IsInt()
  @Min(0)
  @Max(300_000)
  AUTH_CACHE_TTL_MS: number = 10_000;

  @IsInt()
  @Min(1)
  @Max(200)
  DATABASE_POOL_SIZE: number = 20;
}
