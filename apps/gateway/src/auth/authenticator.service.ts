import { Injectable } from '@nestjs/common';
import {
  apiSecretMatches,
  hashApiSecret,
  issueAccessToken,
  readPresentedCredentials,
  verifyAccessToken,
  ACCESS_TOKEN_TTL_SECONDS,
  type CredentialHeaders,
} from '@mp/auth';
import { ApiKeyRepository } from '@mp/persistence';
import { GatewayEnv } from '../gateway.env';
import { TtlCache } from '../common/ttl-cache';
import type { Principal } from './principal';

/** Turns what a request presents into the calling company, or nothing. */
@Injectable()
export class Authenticator {
  private readonly byKeyPair: TtlCache<Principal>;
  private readonly byKeyId: TtlCache<Principal>;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly config: GatewayEnv,
  ) {
    this.byKeyPair = new TtlCache(config.AUTH_CACHE_TTL_MS);
    this.byKeyId = new TtlCache(config.AUTH_CACHE_TTL_MS);
  }

  async authenticate(headers: CredentialHeaders): Promise<Principal | undefined> {
    const presented = readPresentedCredentials(headers);
    switch (presented.kind) {
      case 'key-pair':
        return this.checkKeyPair(presented.key, presented.secret);
      case 'jwt':
        return this.checkToken(presented.token);
      default:
        return undefined;
    }
  }

  async checkKeyPair(key: string, secret: string): Promise<Principal | undefined> {
    const pepper = this.config.API_KEY_PEPPER;
    const cacheKey = `${key}\u0000${hashApiSecret(secret, pepper).toString('base64')}`;
    const cached = this.byKeyPair.get(cacheKey);
    if (cached) return cached;
    const stored = await this.keys.findActiveByKey(key);
    if (!stored || !apiSecretMatches(secret, stored.secretHash, pepper)) return undefined;
    const principal = { companyId: stored.companyId, apiKeyId: stored.id };
    this.byKeyPair.set(cacheKey, principal);
    return principal;
  }

  issueToken(principal: Principal): { access_token: string; expires_in: number } {
    const token = issueAccessToken({ sub: principal.apiKeyId, cid: principal.companyId }, this.config.JWT_SECRET);
    return { access_token: token, expires_in: ACCESS_TOKEN_TTL_SECONDS };
  }

  /** A valid signature is not enough: the key it was issued for must still be active. */
  private async checkToken(token: string): Promise<Principal | undefined> {
    const claims = verifyAccessToken(token, this.config.JWT_SECRET);
    if (!claims) return undefined;
    const cached = this.byKeyId.get(claims.sub);
    if (cached) return cached.companyId === claims.cid ? cached : undefined;
    const stored = await this.keys.findActiveById(claims.sub);
    if (!stored || stored.companyId !== claims.cid) return undefined;
    const principal = { companyId: stored.companyId, apiKeyId: stored.id };
    this.byKeyId.set(claims.sub, principal);
    return principal;
  }
}
