import { DynamicModule, Module, type InjectionToken } from '@nestjs/common';
import { BillingDataModule, LedgerRepository } from '@mp/billing';
import { MessageRepository, MessagingDataModule } from '@mp/messaging';
import { providedWithDataSource } from '@mp/persistence';
import { OutboxRelay, OutboxRepository, type OutboxJob } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';
import { OtpJournal } from './otp-journal';
import { OtpLifecycle } from './otp-lifecycle';
import { OtpManagementStore } from './otp-management';
import type { OtpKeys } from './otp-message';
import { OtpResender } from './otp-resender';
import { OtpSender } from './otp-sender';
import { OtpVerifier } from './otp-verifier';
import { OtpWebhookEvents } from './otp-webhook-events';

/** The keys OTP codes are hashed and their texts sealed with, as OtpSendingModule's factories take them. */
export const OTP_KEYS: InjectionToken<OtpKeys> = 'OTP_KEYS';

/**
 * Committed jobs go to their queues once per group; an answer does not wait for Redis (the outbox
 * holds them, and the dispatcher's sweeper enqueues what a relay misses).
 */
const relayed = (relay: OutboxRelay) => (outbox: { ids: string[]; jobs: OutboxJob[] }) => relay.relay(outbox.ids, outbox.jobs);

/**
 * OTPs after they are sent (delivered, failed, expired), the management endpoints' reads, the
 * log, and the OTPs' webhook events. This lib is the only one that writes the `otps`,
 * `otp_events` and `otp_attempts` tables. Needs DatabaseModule and QueueModule.
 */
@Module({
  providers: [
    providedWithDataSource(OtpManagementStore),
    providedWithDataSource(OtpJournal),
    providedWithDataSource(OtpWebhookEvents),
    {
      provide: OtpLifecycle,
      useFactory: (db: DataSource, outbox: OutboxRepository) => new OtpLifecycle(db, outbox),
      inject: [DataSource, OutboxRepository],
    },
  ],
  exports: [OtpManagementStore, OtpJournal, OtpWebhookEvents, OtpLifecycle],
})
export class OtpDataModule {}

/** How the app makes the OTP keys: a factory of its injected configuration. */
export interface OtpKeysProvider {
  inject: InjectionToken[];
  useFactory: (...config: never[]) => OtpKeys;
}

/**
 * OTPs sent, resent and verified (the gateway): the sender, the resender and the verifier, with
 * the keys the app makes from its configuration; each relays the jobs it commits.
 */
@Module({})
export class OtpSendingModule {
  static forRoot(keys: OtpKeysProvider): DynamicModule {
    return {
      module: OtpSendingModule,
      imports: [MessagingDataModule, BillingDataModule],
      providers: [
        { provide: OTP_KEYS, inject: keys.inject, useFactory: keys.useFactory },
        {
          provide: OtpSender,
          useFactory: (db: DataSource, messages: MessageRepository, ledger: LedgerRepository, otpKeys: OtpKeys, relay: OutboxRelay) =>
            new OtpSender(db, messages, ledger, otpKeys, { onCommitted: relayed(relay) }),
          inject: [DataSource, MessageRepository, LedgerRepository, OTP_KEYS, OutboxRelay],
        },
        {
          provide: OtpResender,
          useFactory: (db: DataSource, messages: MessageRepository, ledger: LedgerRepository, otpKeys: OtpKeys, relay: OutboxRelay) =>
            new OtpResender(db, messages, ledger, otpKeys, { onCommitted: relayed(relay) }),
          inject: [DataSource, MessageRepository, LedgerRepository, OTP_KEYS, OutboxRelay],
        },
        {
          provide: OtpVerifier,
          useFactory: (db: DataSource, outbox: OutboxRepository, otpKeys: OtpKeys, relay: OutboxRelay) =>
            new OtpVerifier(db, outbox, otpKeys.hash, { onEvents: relayed(relay) }),
          inject: [DataSource, OutboxRepository, OTP_KEYS, OutboxRelay],
        },
      ],
      exports: [OtpSender, OtpResender, OtpVerifier],
    };
  }
}
