import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { committedCharge } from '@mp/messaging';
import { DataSource } from 'typeorm';
import { GatewayEnv } from '../gateway.env';
import { IdempotencyGuard } from './idempotency.guard';
import { IdempotencyStore } from './idempotency.store';

/** A retry asks the ledger for a crashed first attempt's charge for a few seconds, then answers 503. */
const LEDGER_ASKED_FOR = { timeoutMs: 3_000, pollMs: 250 };

/** Idempotency-Key: the guard claims keys; completeIdempotentRequests (installed by main.ts) stores the responses. */
@Module({
  providers: [
    {
      provide: IdempotencyStore,
      useFactory: (config: GatewayEnv, db: DataSource) =>
        new IdempotencyStore(config, (companyId, reference) => committedCharge(db, { companyId, reference }, LEDGER_ASKED_FOR)),
      inject: [GatewayEnv, DataSource],
    },
    { provide: APP_GUARD, useClass: IdempotencyGuard },
  ],
  exports: [IdempotencyStore],
})
export class IdempotencyModule {}
