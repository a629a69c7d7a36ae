import { HttpStatus, Injectable } from '@nestjs/common';
import { hash } from 'node:crypto';
import { ApiKeyRepository } from '@mp/accounts';
import {
  apiSecretMatches,
  isApiKeyShaped,
  issueAccessToken,
  readPresentedCredentials,
  verifyAccessToken,
  ACCESS_TOKEN_TTL_SECONDS,
  type CredentialHeaders,
} from '@mp/auth';
import { ApiError } from '@mp/http-kit';
import { GatewayEnv } from '../gateway.env';
import { LoadingCache } from '../common/loading-cache';
import { AuthThrottle } from './auth-throttle.service';
import { KeyUsage } from './key-usage.service';
import type { Principal } from './principal';

/** A verified key as cached: its principal, and whether an operator suspended its company. */
type CheckedKey = Principal & { companySuspended: boolean };

export const COMPANY_SUSPENDED_ERROR = 'Company suspended: contact the platform operator';
const companySuspended = () => new ApiError(HttpStatus.FORBIDDEN, COMPANY_SUSPENDED_ERROR);

/** The principal of a key, or a 403 when its company is suspended (seen within the cache time, AUTH_CACHE_TTL_MS). */
function unlessSuspended(checked: CheckedKey | undefined): Principal | undefined {
  if (checked?.companySuspended) throw companySuspended();
  return checked && { companyId: checked.companyId, apiKeyId: checked.apiKeyId };
}

/** Turns what a request presents into the calling company, or nothing; a suspended company's keys are refused with 403. */
@Injectable()
export class Authenticator {
  private readonly byKeyPair: LoadingCache<CheckedKey>;
  private readonly byKeyId: LoadingCache<CheckedKey>;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly config: GatewayEnv,
    private readonly throttle: AuthThrottle,
    private readonly usage: KeyUsage,
  ) {
    this.byKeyPair = new LoadingCache({ ttlMs: config.AUTH_CACHE_TTL_MS });
    this.byKeyId = new LoadingCache({ ttlMs: config.AUTH_CACHE_TTL_MS });
  }

  /** `address`: the caller's, for the throttle of failed key checks (clientAddress; null: not counted per address). */
  async authenticate(headers: CredentialHeaders, address: string | null = null): Promise<Principal | undefined> {
    const presented = readPresentedCredentials(headers);
    switch (presented.kind) {
      case 'key-pair':
        return this.checkKeyPair(presented.key, presented.secret, address);
      case 'jwt':
        return this.checkToken(presented.token);
      default:
        return undefined;
    }
  }

  /** Throws a 429 ApiError while the key or the address is throttled (AuthThrottle). */
  async checkKeyPair(key: string, secret: string, address: string | null = null): Promise<Principal | undefined> {
    if (!isApiKeyShaped(key)) return undefined;
    const pepper = this.config.API_KEY_PEPPER;
    // Keyed by a digest, never the secret itself: a one-shot SHA-256, cheaper than an HMAC object
    // per request, and only this process's memory holds it (docs/decisions/0029-auth-cache-key-digest.md).
    const cacheKey = `${key}\u0000${hash('sha256', secret, 'base64')}`;
    const principal = await this.byKeyPair.get(cacheKey, async (current) => {
      // A credential verified before, reloaded in the background, is not a guess: the throttle is for new ones.
      if (current === undefined) await this.throttle.refuseIfBlocked(key, address);
      const stored = await this.keys.findActiveByKey(key);
      if (!stored || !apiSecretMatches(secret, stored.secretHash, pepper)) {
        await this.throttle.failed(key, address);
        return undefined;
      }
      return { companyId: stored.companyId, apiKeyId: stored.id, companySuspended: stored.companySuspended };
    });
    if (principal) this.usage.used(principal.apiKeyId);
    return unlessSuspended(principal);
  }

  issueToken(principal: Principal): { access_token: string; expires_in: number } {
    const token = issueAccessToken({ sub: principal.apiKeyId, cid: principal.companyId }, this.config.JWT_SECRET);
    return { access_token: token, expires_in: ACCESS_TOKEN_TTL_SECONDS };
  }

  /** A valid signature is not enough: the key it was issued for must still be active. */
  private async checkToken(token: string): Promise<Principal | undefined> {
    const claims = verifyAccessToken(token, this.config.JWT_SECRET);
    if (!claims) return undefined;
    const principal = await this.byKeyId.get(claims.sub, async () => {
      const stored = await this.keys.findActiveById(claims.sub);
      return stored ? { companyId: stored.companyId, apiKeyId: stored.id, companySuspended: stored.companySuspended } : undefined;
    });
    if (principal?.companyId !== claims.cid) return undefined;
    this.usage.used(principal.apiKeyId);
    return unlessSuspended(principal);
  }
}
