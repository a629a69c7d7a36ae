import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotencyStore } from './idempotency.store';

/** Idempotency-Key: the guard claims keys; completeIdempotentRequests (installed by main.ts) stores the responses. */
@Module({ providers: [IdempotencyStore, { provide: APP_GUARD, useClass: IdempotencyGuard }], exports: [IdempotencyStore] })
export class IdempotencyModule {}
