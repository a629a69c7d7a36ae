import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { allDone, GroupCommit, InFlight } from '@mp/batching';
import { DispatchStore, type DispatchResult } from '@mp/messaging';
import { contextOfSpan, inSpan, SpanKind, tracingOn } from '@mp/observability';
import { OutboxRelay } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { SubmitRecorder } from '../sms-submit/submit-recorder.service';
import { CarrierPool, type CarrierDeliveryReceipt } from './carrier-pool.service';
import { SubmitSpans } from './submit-spans';

/**
 * How long a receipt may wait for others before its transaction: nobody waits on a receipt but
 * the SMSC for its acknowledgement (which allows seconds), and at a few hundred receipts a second
 * a flush then carries a dozen instead of one or two, each flush being a transaction of several
 * round trips.
 */
const RECEIPT_LINGER_MS = 25;

/**
 * Applies every delivery receipt to its part (and, once all parts are final, to its message); a
 * receipt that overtakes the recording of its part is stored for it. Receipts that arrive
 * together are applied in one transaction. The deliver_sm is acknowledged only after its receipt
 * is committed; if that fails the SMSC is told so (ESME_RX_T_APPN) and sends it again.
 */
@Injectable()
export class ReceiptRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('ReceiptRecorder');
  private readonly batcher: GroupCommit<CarrierDeliveryReceipt, void>;
  private timer: NodeJS.Timeout | undefined;
  private sweeping = false;
  private readonly sweeps = new InFlight();

  constructor(
    private readonly store: DispatchStore,
    private readonly carrier: CarrierPool,
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
    private readonly submits: SubmitRecorder,
    private readonly submitSpans: SubmitSpans,
  ) {
    this.batcher = new GroupCommit(
      async (receipts) => {
        await this.relayed(await this.store.applyReceipts(receipts), (t) => this.logger.debug({ msg: 'message settled', ...t }));
        return allDone(receipts);
      },
      // Two flushes at once: while one commits, the next batch is already being written. They
      // cannot deadlock: every dispatch transaction takes its locks in one order (dispatch-locks.ts).
      { maxBatch: 500, concurrency: 2, lingerMs: RECEIPT_LINGER_MS },
    );
  }

  onModuleInit(): void {
    this.carrier.onReceipt((receipt) => this.record(receipt));
    this.timer = setInterval(() => this.sweeps.track(this.applyPending()), this.config.OUTBOX_SWEEP_MS);
  }

  /** After the binds are closed (no receipt comes any more), the receipts received are committed. */
  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.carrier.close();
    await this.sweeps.settled();
    await this.batcher.idle();
  }

  /**
   * Backstops, each round: receipts stored but still unapplied a few seconds later are applied,
   * and parts no receipt answered within RECEIPT_TIMEOUT_MINUTES are recorded expired.
   */
  async applyPending(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.relayed(await this.store.applyPendingReceipts(), (t) => this.logger.warn({ msg: 'applied a receipt late', ...t }));
      const timeoutMs = this.config.RECEIPT_TIMEOUT_MINUTES * 60_000;
      await this.relayed(await this.store.expireUnanswered(timeoutMs), (t) => this.logger.warn({ msg: 'no receipt in time: message expired', ...t }));
    } catch (error) {
      this.logger.warn({ msg: 'could not apply pending receipts; trying again next round', err: error });
    } finally {
      this.sweeping = false;
    }
  }

  /** Records a receipt in a span that continues its part's submit_sm (SubmitSpans), when this process sent it. */
  record(receipt: CarrierDeliveryReceipt): Promise<void> {
    if (!tracingOn()) return this.recordNow(receipt);
    const attributes = { 'smpp.message_id': receipt.carrierMessageId, 'smpp.receipt.stat': receipt.stat };
    const parent = contextOfSpan(this.submitSpans.find(receipt.carrierMessageId));
    return inSpan('deliver_sm receipt', { kind: SpanKind.CONSUMER, parent, attributes }, () => this.recordNow(receipt));
  }

  private async recordNow(receipt: CarrierDeliveryReceipt): Promise<void> {
    try {
      // A receipt that overtook the recording of its part's submit response goes after it, and
      // then finds the part (across processes, the carrier id's advisory lock orders them).
      await this.submits.whenRecorded(receipt.carrierMessageId);
      await this.batcher.submit(receipt);
    } catch (error) {
      this.logger.error({ msg: 'could not record a delivery receipt; the SMSC will resend it', carrierMessageId: receipt.carrierMessageId, err: error });
      throw error;
    }
  }

  private async relayed({ transitions, outbox }: DispatchResult, log: (transition: { messageId: string; status: string }) => void): Promise<void> {
    for (const { messageId, status } of transitions) log({ messageId, status });
    if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
  }
}
