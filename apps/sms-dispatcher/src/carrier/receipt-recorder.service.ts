import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { DeliveryReceipt } from '@mp/carrier';
import { DispatchStore } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { CarrierPool } from './carrier-pool.service';

/**
 * Stores every delivery receipt and moves its part (and, once all parts are final, its message).
 * The deliver_sm is acknowledged only after the receipt is stored; if storing fails the SMSC is
 * told so (ESME_RX_T_APPN) and sends it again.
 */
@Injectable()
export class ReceiptRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('ReceiptRecorder');
  private readonly store: DispatchStore;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    dataSource: DataSource,
    private readonly carrier: CarrierPool,
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
  ) {
    this.store = new DispatchStore(dataSource);
  }

  onModuleInit(): void {
    this.carrier.onReceipt((receipt) => this.record(receipt));
    this.timer = setInterval(() => void this.applyPending(), this.config.OUTBOX_SWEEP_MS);
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Backstop: receipts stored but still unapplied a few seconds later are applied now. */
  async applyPending(): Promise<void> {
    try {
      for (const { transitions, outbox } of await this.store.applyPendingReceipts()) {
        for (const transition of transitions) this.logger.warn({ msg: 'applied a receipt late', ...transition });
        if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
      }
    } catch (error) {
      this.logger.warn({ msg: 'could not apply pending receipts; trying again next round', err: error });
    }
  }

  async record(receipt: DeliveryReceipt): Promise<void> {
    try {
      const { transitions, outbox } = await this.store.applyReceipt(receipt);
      for (const transition of transitions) this.logger.log({ msg: 'message settled', ...transition });
      if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
    } catch (error) {
      this.logger.error({ msg: 'could not record a delivery receipt; the SMSC will resend it', carrierMessageId: receipt.carrierMessageId, err: error });
      throw error;
    }
  }
}
