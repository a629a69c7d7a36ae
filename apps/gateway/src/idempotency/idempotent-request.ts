import type { FastifyRequest } from 'fastify';
import type { AuthenticatedRequest } from '../auth/principal';
import type { PendingAnswer } from './idempotency-records';
import type { Lease } from './idempotency.store';

/**
 * Records a send's answer (its status is the route's) under the request's Idempotency-Key before
 * the send commits; throws if the key's lease was lost.
 */
export type RecordPendingAnswer = (answer: Omit<PendingAnswer, 'status'>) => Promise<void>;

/** The key a request holds: its response is stored under it when sent (see completeIdempotentRequests). */
export interface IdempotentClaim extends Lease {
  /** Renews the lease while the request runs; stopped when its response is stored. */
  renewal: NodeJS.Timeout;
  recordPendingAnswer: RecordPendingAnswer;
}

export type IdempotentRequest = FastifyRequest & AuthenticatedRequest & { idempotency?: IdempotentClaim };
