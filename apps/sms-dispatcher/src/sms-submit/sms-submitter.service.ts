import { Injectable, Logger } from '@nestjs/common';
import { concatenationReference, DispatchStore, type DispatchMessage, type DispatchResult } from '@mp/messaging';
import { encodeSmsParts, splitSms } from '@mp/messaging-domain';
import { QUEUE_POLICIES, QueueName } from '@mp/queue-contracts';
import { OutboxRelay } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { DataSource } from 'typeorm';
import { CarrierPool } from '../carrier/carrier-pool.service';

const NOTHING_TO_SEND = new Set(['cancelled', 'delivered', 'undelivered', 'expired', 'rejected', 'failed']);

/**
 * Submits the parts of one message that are not yet recorded as submitted. Run twice, it sends
 * nothing twice: parts recorded as submitted are skipped, and a part whose submit_sm left but
 * whose response was never recorded goes again with the same user_message_reference and bytes,
 * which the carrier's duplicate filter drops.
 */
@Injectable()
export class SmsSubmitter {
  private readonly logger = new Logger('SmsSubmitter');
  private readonly store: DispatchStore;

  constructor(
    dataSource: DataSource,
    private readonly carrier: CarrierPool,
    private readonly relay: OutboxRelay,
  ) {
    this.store = new DispatchStore(dataSource);
  }

  /** `attempt` is the job's attempt number: on the last one, parts still refused are failed (and refunded). */
  async submit(messageId: string, attempt = 1): Promise<{ submitted: number; skipped: string | null }> {
    const message = await this.store.load(messageId);
    if (!message) throw new UnrecoverableError(`message ${messageId} does not exist`);
    if (NOTHING_TO_SEND.has(message.status)) return { submitted: 0, skipped: message.status };
    if (message.status === 'scheduled' && (await this.store.release(messageId)) !== 'queued') {
      return { submitted: 0, skipped: 'cancelled' };
    }
    const lastAttempt = attempt >= QUEUE_POLICIES[QueueName.SmsDispatch].attempts;
    return { submitted: await this.submitPendingParts(message, lastAttempt), skipped: null };
  }

  private async submitPendingParts(message: DispatchMessage, lastAttempt: boolean): Promise<number> {
    const encoded = encodeSmsParts(splitSms(message.body), concatenationReference(message.id));
    let submitted = 0;
    for (const part of message.parts) {
      if (part.status !== 'pending') continue;
      const bytes = encoded[part.index - 1];
      const outcome = await this.carrier.submit({
        source: message.sender,
        destination: message.recipient,
        dataCoding: bytes.dataCoding,
        udh: bytes.udh,
        payload: bytes.payload,
        userMessageReference: part.userMessageReference,
        registeredDelivery: true,
      });
      if (outcome.ok) {
        await this.relayed(this.store.recordSubmitted(message.id, part.index, outcome.carrierMessageId));
        submitted += 1;
      } else if (outcome.permanent || lastAttempt) {
        this.logger.warn({ msg: 'part failed for good', messageId: message.id, part: part.index, reason: outcome.reason, lastAttempt });
        await this.relayed(this.store.recordPartFailed(message.id, part.index, `smpp:${outcome.commandStatus}`, outcome.reason));
      } else {
        // Transient (throttled, no bind, timeout): BullMQ retries with backoff; recorded parts are kept.
        throw new Error(`part ${part.index} of ${message.id} not accepted yet: ${outcome.reason}`);
      }
    }
    return submitted;
  }

  private async relayed(write: Promise<DispatchResult>): Promise<void> {
    const { outbox } = await write;
    if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
  }
}
