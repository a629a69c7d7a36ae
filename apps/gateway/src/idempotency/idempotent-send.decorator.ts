import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { PendingAnswer } from './idempotency-records';
import type { IdempotentRequest } from './idempotency.guard';

export const AFTER_CRASH_METADATA = 'idempotency:after-crash';

/**
 * On a send handler that records its answer before it commits (RecordPendingAnswer): a retry
 * whose first attempt's gateway died replays that answer if the send committed, or runs.
 */
export const IdempotentSend = () => SetMetadata(AFTER_CRASH_METADATA, 'ledger');

/**
 * Records a send's answer (its status is the route's) under the request's Idempotency-Key before
 * the send commits; throws if the key's lease was lost.
 */
export type RecordPendingAnswer = (answer: Omit<PendingAnswer, 'status'>) => Promise<void>;

/** The request's RecordPendingAnswer, or undefined without an Idempotency-Key. */
export const PendingAnswerRecorder = createParamDecorator(
  (_: unknown, context: ExecutionContext): RecordPendingAnswer | undefined =>
    context.switchToHttp().getRequest<IdempotentRequest>().idempotency?.recordPendingAnswer,
);
