import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { IdempotentRequest, RecordPendingAnswer } from './idempotent-request';

export const AFTER_CRASH_METADATA = 'idempotency:after-crash';

/**
 * On a send handler that records its answer before it commits (RecordPendingAnswer): a retry
 * whose first attempt's gateway died replays that answer if the send committed, or runs.
 */
export const IdempotentSend = () => SetMetadata(AFTER_CRASH_METADATA, 'ledger');

export type { RecordPendingAnswer } from './idempotent-request';

/** The request's RecordPendingAnswer, or undefined without an Idempotency-Key. */
export const PendingAnswerRecorder = createParamDecorator(
  (_: unknown, context: ExecutionContext): RecordPendingAnswer | undefined =>
    context.switchToHttp().getRequest<IdempotentRequest>().idempotency?.recordPendingAnswer,
);
