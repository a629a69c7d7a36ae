import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { ApiError, ReplayedResponse } from '@mp/http-kit';
import type { FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/principal';
import { IdempotencyStore, requestFingerprint } from './idempotency.store';

const HEADER = 'idempotency-key';
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;

/** The key a request claimed: its response is stored under it when sent (see completeIdempotentRequests). */
export interface IdempotentClaim {
  companyId: string;
  key: string;
  fingerprint: string;
}

export type IdempotentRequest = FastifyRequest & AuthenticatedRequest & { idempotency?: IdempotentClaim };

/**
 * `Idempotency-Key` on any authenticated POST: the same key and body within 24 hours answer the
 * first response again without running the handler (no second send, no second charge); the
 * same key with another body answers 409. A guard, not an interceptor: a global NestJS
 * interceptor wraps every request's handler in RxJS observables, a cost paid by every request for
 * a header few carry (docs/decisions/0024-idempotency-as-guard.md). It runs after ApiAuthGuard
 * (registered first: AuthModule comes before IdempotencyModule), whose principal it needs, and
 * before validation, as the interceptor did.
 */
@Injectable()
export class IdempotencyGuard implements CanActivate {
  constructor(private readonly store: IdempotencyStore) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<IdempotentRequest>();
    const header = request.headers[HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (request.method !== 'POST' || key === undefined || !request.principal) return true;
    if (!ACCEPTABLE_KEY.test(key)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const companyId = request.principal.companyId;
    const fingerprint = requestFingerprint(request.method, request.url.split('?')[0], request.body);
    const claim = await this.store.claim(companyId, key, fingerprint);
    if (claim.kind === 'conflict') throw new ApiError(HttpStatus.CONFLICT, claim.error);
    if (claim.kind === 'replay') throw new ReplayedResponse(claim.status, claim.body, { 'idempotent-replayed': 'true' });
    request.idempotency = { companyId, key, fingerprint };
    return true;
  }
}
