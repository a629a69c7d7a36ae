import { CallHandler, ExecutionContext, HttpStatus, Injectable, NestInterceptor } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, mergeMap, of, type Observable } from 'rxjs';
import { catchError } from 'rxjs/operators';
import type { AuthenticatedRequest } from '../auth/principal';
import { IdempotencyStore, requestFingerprint } from './idempotency.store';

const HEADER = 'idempotency-key';
const ACCEPTABLE_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on any authenticated POST: the same key and body within 24 hours answer the
 * first response again without running the handler (no second send, no second charge); the
 * same key with another body answers 409.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly store: IdempotencyStore) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest & AuthenticatedRequest>();
    const header = request.headers[HEADER];
    const key = Array.isArray(header) ? header[0] : header;
    if (request.method !== 'POST' || key === undefined || !request.principal) return next.handle();
    if (!ACCEPTABLE_KEY.test(key)) {
      throw new ApiError(HttpStatus.BAD_REQUEST, 'Idempotency-Key must be 1 to 255 visible ASCII characters');
    }
    const companyId = request.principal.companyId;
    const fingerprint = requestFingerprint(request.method, request.url.split('?')[0], request.body);
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return from(this.store.claim(companyId, key, fingerprint)).pipe(
      mergeMap((claim) => {
        if (claim.kind === 'conflict') throw new ApiError(HttpStatus.CONFLICT, claim.error);
        if (claim.kind === 'replay') {
          void reply.status(claim.status).header('idempotent-replayed', 'true');
          return of(claim.body);
        }
        return next.handle().pipe(
          mergeMap(async (body: unknown) => {
            await this.store.complete(companyId, key, fingerprint, reply.statusCode || HttpStatus.OK, body);
            return body;
          }),
          catchError(async (error: unknown) => {
            await this.store.release(companyId, key).catch(() => undefined);
            throw error;
          }),
        );
      }),
    );
  }
}
