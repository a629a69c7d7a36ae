import { LanePermits } from '@mp/batching';
import { laneIndex, NO_RESPONSE, TRAFFIC_LANES, TrafficPolicy, YieldingPace, type TrafficLane } from '@mp/carrier';
import { formatMoney } from '@mp/billing-domain';
import { Injectable, Logger } from '@nestjs/common';
import { DispatchStore, type BatchSlicing, type DispatchMessage, type DispatchPart } from '@mp/messaging';
import { inSpan, SpanKind, tracingOn, type Span } from '@mp/observability';
import type { EncodedPart } from '@mp/messaging-domain';
import { openText, parseTextKey } from '@mp/otp-domain';
import { QUEUE_POLICIES, QueueName } from '@mp/queue-contracts';
import { OutboxRelay } from '@mp/queue-runtime';
import { UnrecoverableError } from 'bullmq';
import { CarrierPool } from '../carrier/carrier-pool.service';
import { SubmitSpans } from '../carrier/submit-spans';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { PartEncoder } from './part-encoder';
import { submitWithFailover } from './part-failover';
import { SubmitRecorder } from './submit-recorder.service';

const NOTHING_TO_SEND = new Set(['cancelled', 'delivered', 'undelivered', 'expired', 'rejected', 'failed']);

/** A campaign batch's turn to make its messages. */
export interface CampaignBatchTurn {
  /** To call once they are made. */
  made: () => void;
  /** How to insert them; undefined: all at once. */
  slicing: BatchSlicing | undefined;
}

export interface SubmitSummary {
  messages: number;
  submitted: number;
  skipped: number;
}

/**
 * Submits the parts of a job's messages that are not yet recorded as submitted, all messages at
 * once (the carrier's window bounds what is in flight). Run twice, it sends nothing twice: parts
 * recorded as submitted are skipped, and a part whose submit_sm left but whose response was never
 * recorded goes again with the same user_message_reference and bytes, which the carrier's
 * duplicate filter drops.
 */
@Injectable()
export class SmsSubmitter {
  private readonly logger = new Logger('SmsSubmitter');
  private readonly textKey: Buffer;
  /** Bounds the parts in doubt (sent, response not recorded), some kept from campaigns (TrafficPolicy). */
  private readonly unrecorded: LanePermits;
  private readonly encoder = new PartEncoder();
  /** Holds campaigns' parts to the traffic policy's pace while OTPs or single sends flow. */
  private readonly campaignPace: YieldingPace;
  private readonly retryBudget: number;

  constructor(
    private readonly store: DispatchStore,
    private readonly carrier: CarrierPool,
    private readonly recorder: SubmitRecorder,
    private readonly relay: OutboxRelay,
    private readonly submitSpans: SubmitSpans,
    config: SmsDispatcherEnv,
    traffic: TrafficPolicy,
  ) {
    this.textKey = parseTextKey(config.OTP_TEXT_KEY);
    this.unrecorded = new LanePermits(traffic.unrecorded.max, TRAFFIC_LANES.length, traffic.unrecordedReserved);
    this.campaignPace = new YieldingPace(traffic);
    this.retryBudget = config.CARRIER_RETRY_BUDGET;
  }

  /**
   * `attempt` is the job's attempt number: on the last one, parts still refused are failed (and
   * refunded). `lane` says whose parts go first. Throws, so the job retries, if any part was
   * refused for now (throttled, no bind).
   */
  async submit(messageIds: readonly string[], attempt = 1, lane: TrafficLane = 'normal'): Promise<SubmitSummary> {
    const messages = await this.store.loadMany(messageIds);
    if (messages.length === 0) throw new UnrecoverableError(`none of the ${messageIds.length} messages exists`);
    if (messages.length < messageIds.length) {
      this.logger.error({ msg: 'some messages of the job do not exist', wanted: messageIds.length, found: messages.length });
    }
    return this.submitLoaded(messages, attempt, lane);
  }

  /** submit, for messages already loaded (or just made, as a campaign batch's are). */
  async submitLoaded(messages: readonly DispatchMessage[], attempt = 1, lane: TrafficLane = 'normal'): Promise<SubmitSummary> {
    const lastAttempt = attempt >= QUEUE_POLICIES[QueueName.SmsDispatch].attempts;
    const results = await Promise.allSettled(messages.map((message) => this.submitMessage(message, lastAttempt, lane)));
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (refused.length > 0) {
      throw new Error(`${refused.length} of ${messages.length} messages not accepted yet; first: ${String(refused[0].reason)}`);
    }
    const counts = results.map((r) => (r as PromiseFulfilledResult<number | null>).value);
    return {
      messages: messages.length,
      submitted: counts.reduce<number>((sum, n) => sum + (n ?? 0), 0),
      skipped: counts.filter((n) => n === null).length,
    };
  }

  /**
   * Resolves when a campaign batch may make its messages (one at a time while campaigns yield),
   * with the function to call once they are made and how to insert them (in slices while
   * campaigns yield).
   */
  async campaignBatchTurn(): Promise<CampaignBatchTurn> {
    const made = await this.campaignPace.startTurn();
    return { made, slicing: this.campaignPace.makingSlices() };
  }

  /** Parts submitted, or null if the message had nothing to send. */
  private async submitMessage(message: DispatchMessage, lastAttempt: boolean, lane: TrafficLane): Promise<number | null> {
    if (NOTHING_TO_SEND.has(message.status)) return null;
    if (message.status === 'scheduled' && (await this.store.release(message.id)) !== 'queued') return null;
    // An OTP's text is opened only here, just before it goes to the carrier.
    const text = message.bodySealed ? openText(this.textKey, message.body) : message.body;
    const encoded = this.encoder.encode(text, message.id);
    const bulk = lane === 'bulk';
    if (!bulk) this.campaignPace.noteOthers();
    let submitted = 0;
    for (const part of message.parts) {
      if (part.status !== 'pending') continue;
      if (bulk) await this.campaignPace.turn();
      const release = await this.unrecorded.acquire(laneIndex(lane));
      try {
        if (await this.submitPart(message, part, encoded[part.index - 1], lane, lastAttempt)) submitted += 1;
      } finally {
        release();
      }
    }
    return submitted;
  }

  /** Sends one part and records what came of it: true once it is recorded as submitted. */
  private submitPart(message: DispatchMessage, part: DispatchPart, bytes: EncodedPart, lane: TrafficLane, lastAttempt: boolean): Promise<boolean> {
    if (!tracingOn()) return this.sendPart(undefined, message, part, bytes, lane, lastAttempt);
    const attributes = { 'messaging.message.id': message.id, 'sms.part': part.index, 'sms.route': message.route, 'sms.lane': lane };
    return inSpan('submit_sm', { kind: SpanKind.CLIENT, attributes }, (span) => this.sendPart(span, message, part, bytes, lane, lastAttempt));
  }

  private async sendPart(
    span: Span | undefined,
    message: DispatchMessage,
    { index: partIndex, userMessageReference, timedOutCarriers }: DispatchPart,
    bytes: EncodedPart,
    lane: TrafficLane,
    lastAttempt: boolean,
  ): Promise<boolean> {
    const plan = this.carrier.plan(message.recipient, message.route);
    const part = {
      source: message.sender,
      destination: message.recipient,
      dataCoding: bytes.dataCoding,
      udh: bytes.udh,
      payload: bytes.payload,
      userMessageReference,
      registeredDelivery: true,
      lane,
    };
    const sent = await submitWithFailover(this.carrier, plan, part, this.retryBudget, { mayHold: timedOutCarriers });
    span?.setAttribute('smpp.outcome', sent.result === 'accepted' ? 'accepted' : (sent.outcome?.reason ?? 'no route'));
    if (sent.result === 'accepted') {
      const { carrierMessageId, carrier, timedOut } = sent;
      span?.setAttribute('smpp.message_id', carrierMessageId);
      span?.setAttribute('smpp.carrier', carrier.carrierId);
      this.submitSpans.remember(carrierMessageId, span?.spanContext());
      if (timedOut.length > 0)
        this.logger.warn({
          msg: timedOut.includes(carrier.carrierId)
            ? 'part resubmitted, after the others, to a carrier that timed out on it before'
            : 'part moved to another carrier after a timeout',
          messageId: message.id,
          part: partIndex,
          timedOut,
          carrier: carrier.carrierId,
        });
      const multipart = message.parts.length > 1;
      const webhook = message.webhookUrl !== null;
      const cost = carrier.entry.cost === undefined ? null : formatMoney(carrier.entry.cost);
      await this.recorder.submitted(
        { messageId: message.id, partIndex, carrierMessageId, multipart, webhook, carrier: carrier.carrierId, carrierCost: cost, timedOutCarriers: timedOut },
        lane,
      );
      return true;
    }
    const outcome = sent.outcome ?? { commandStatus: NO_RESPONSE, reason: `no route to ${message.recipient} on ${message.route}` };
    if (sent.result === 'rejected' || lastAttempt) {
      this.logger.warn({ msg: 'part failed for good', messageId: message.id, part: partIndex, reason: outcome.reason, lastAttempt });
      const { outbox } = await this.store.recordPartFailed(message.id, partIndex, `smpp:${outcome.commandStatus}`, outcome.reason);
      if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
      return false;
    }
    // No carrier took it now (throttled, no bind, timeout): BullMQ retries with backoff; recorded parts are kept.
    // The carriers it timed out on may hold it: the next attempt tries them last.
    if (sent.timedOut.length > 0) await this.store.recordTimedOut(message.id, partIndex, sent.timedOut);
    throw new Error(`part ${partIndex} of ${message.id} not accepted yet: ${outcome.reason}`);
  }
}
