import { BeforeApplicationShutdown, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InFlight } from '@mp/batching';
import type { MobileOriginatedPdu } from '@mp/carrier';
import { InboundStore } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { CarrierPool } from './carrier-pool.service';

/** How often parts that never found their siblings are looked for (they expire after an hour). */
const FRAGMENT_EXPIRY_EVERY_MS = 60_000;

/**
 * Stores every mobile-originated deliver_sm (a message a handset sent to one of the platform's
 * numbers) before it is acknowledged: the carrier answers deliver_sm_resp once record settles,
 * and ESME_RX_T_APPN if it throws, so the SMSC sends it again (docs/decisions/0050-inbound-messages.md).
 * A part that cannot be read (an unknown data_coding) is acknowledged and dropped with a warning:
 * sending it again would not make it readable.
 */
@Injectable()
export class InboundRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('InboundRecorder');
  private readonly recording = new InFlight();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly store: InboundStore,
    private readonly carrier: CarrierPool,
    private readonly relay: OutboxRelay,
    private readonly config: SmsDispatcherEnv,
  ) {}

  onModuleInit(): void {
    this.carrier.onMobileOriginated((message, smsc) => {
      const stored = this.record(message, smsc);
      this.recording.track(stored);
      return stored;
    });
    this.timer = setInterval(() => void this.expireFragments(), Math.max(FRAGMENT_EXPIRY_EVERY_MS, this.config.OUTBOX_SWEEP_MS));
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.carrier.close();
    await this.recording.settled();
  }

  async record(message: MobileOriginatedPdu, smsc: string): Promise<void> {
    const part = {
      smsc,
      from: message.source,
      to: message.destination,
      esmClass: message.esmClass,
      dataCoding: message.dataCoding,
      userData: message.userData,
      sar: message.sar,
    };
    let outcome: Awaited<ReturnType<InboundStore['receive']>>;
    try {
      outcome = await this.store.receive(part);
    } catch (error) {
      if (error instanceof Error && error.name === 'SmsTextError') {
        this.logger.warn({ msg: 'an inbound part could not be read; dropped', smsc, from: part.from, to: part.to, dataCoding: part.dataCoding, err: error });
        return;
      }
      this.logger.error({ msg: 'could not store an inbound part; the SMSC will send it again', smsc, to: part.to, err: error });
      throw error;
    }
    if (outcome.outcome !== 'stored') return;
    this.logger.log({ msg: 'inbound message stored', inboundMessageId: outcome.messageId, companyId: outcome.companyId, smsc });
    const keyword = outcome.keyword;
    if (keyword) {
      const reply = 'messageId' in keyword.reply ? { replyMessageId: keyword.reply.messageId } : { replySkipped: keyword.reply.skipped };
      const log = { msg: 'inbound keyword answered', inboundMessageId: outcome.messageId, intent: keyword.intent, listChanged: keyword.changed, ...reply };
      if ('skipped' in keyword.reply) this.logger.warn(log);
      else this.logger.log(log);
    }
    if (outcome.outbox.jobs.length > 0) await this.relay.relay(outcome.outbox.ids, outcome.outbox.jobs);
  }

  private async expireFragments(): Promise<void> {
    try {
      const { incomplete } = await this.store.expireFragments();
      if (incomplete > 0) this.logger.warn({ msg: 'inbound parts expired without their siblings', parts: incomplete });
    } catch (error) {
      this.logger.warn({ msg: 'could not expire inbound fragments; trying again later', err: error });
    }
  }
}
