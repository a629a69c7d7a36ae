import { CanActivate, ExecutionContext, HttpStatus, Injectable } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { ApiError, ReplayedResponse } from '@mp/http-kit';
import { LEASE_RENEW_MS, type AfterCrash } from './idempotency-records';
import { IdempotencyStore, LeaseLostError, requestFingerprint, type Lease } from './idempotency.store';
import { AFTER_CRASH_METADATA } from './idempotent-send.decorator';
import type { IdempotentClaim, IdempotentRequest, RecordPendingAnswer } from './idempotent-request';

const HEADER = 'idempotency-key';
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;
/** A request still running after this is stuck: its lease may run out (a renewal timer that leaked must not hold a key for a day). */
const MAX_RENEWAL_MS = 10 * 60_000;

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
  constructor(
    private readonly store: IdempotencyStore,
    private readonly reflector: Reflector,
  ) {}

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
    const afterCrash = this.reflector.get<AfterCrash | undefined>(AFTER_CRASH_METADATA, context.getHandler()) ?? 'hold';
    const claim = await this.store.claim(companyId, key, fingerprint, afterCrash);
    if (claim.kind === 'conflict') throw new ApiError(HttpStatus.CONFLICT, claim.error);
    if (claim.kind === 'unavailable') throw new ApiError(HttpStatus.SERVICE_UNAVAILABLE, claim.error);
    if (claim.kind === 'replay') throw new ReplayedResponse(claim.status, claim.body, { 'idempotent-replayed': 'true' });
    const status = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler()) ?? HttpStatus.CREATED;
    request.idempotency = this.held({ companyId, key, fingerprint, owner: claim.owner }, status);
    return true;
  }

  private held(lease: Lease, status: number): IdempotentClaim {
    const stopAt = Date.now() + MAX_RENEWAL_MS;
    const renewal = setInterval(() => {
      if (Date.now() > stopAt) clearInterval(renewal);
      else void this.store.renew(lease).catch(() => undefined);
    }, LEASE_RENEW_MS).unref();
    const recordPendingAnswer: RecordPendingAnswer = (answer) =>
      this.store.recordPendingAnswer(lease, { ...answer, status }).catch((error: unknown) => {
        if (error instanceof LeaseLostError) throw new ApiError(HttpStatus.CONFLICT, 'A request with this Idempotency-Key is still being processed');
        throw error;
      });
    return { ...lease, renewal, recordPendingAnswer };
  }
}
