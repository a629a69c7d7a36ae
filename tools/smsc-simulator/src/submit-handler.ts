import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { displaySource, toE164 } from './addresses';
import { decodeText, isSupportedDataCoding } from './data-coding';
import { DuplicateFilter } from './duplicate-filter';
import { CommandStatus } from './pdu';
import type { ReceiptStat } from './receipt';
import { Reassembler } from './reassembly';
import type { SimulatorState } from './state';
import type { SubmitSm } from './submit-sm';
import { splitUserData, UDHI } from './udh';

export interface SubmitPolicy {
  /** Fraction (0..1) of accepted parts whose receipt says UNDELIV (they never reach the handset). */
  failureRate: number;
  /** Fraction (0..1) of submit_sm answered ESME_RSUBMITFAIL. */
  rejectRate: number;
  random: () => number;
}

/** A receipt to send once the part has been answered and the receipt delay has passed. */
export interface PendingReceipt {
  systemId: string;
  messageId: string;
  submittedAt: Date;
  stat: ReceiptStat;
  /** The text of this part, quoted in the receipt. */
  text: string;
  /** The handset (receipt source) and the original sender (receipt destination), as submitted. */
  handset: string;
  sender: string;
  senderTon: number;
}

export type SubmitResult = { status: 0; messageId: string; receipt: PendingReceipt | null } | { status: number; messageId?: undefined; receipt: null };

/** Unique across restarts: a random prefix per process and a counter. */
export function messageIdGenerator(): () => string {
  const prefix = randomBytes(4).toString('hex');
  let counter = 0;
  return () => `${prefix}${(counter++).toString(16).padStart(8, '0')}`;
}

/** Decides what becomes of one submit_sm that passed the bind's rate limit. */
export class SubmitHandler {
  readonly duplicates = new DuplicateFilter();
  readonly reassembler = new Reassembler();
  private readonly nextMessageId = messageIdGenerator();

  constructor(
    private readonly state: SimulatorState,
    private readonly policy: SubmitPolicy,
    private readonly logger: Logger,
  ) {}

  handle(systemId: string, submit: SubmitSm): SubmitResult {
    const { stats } = this.state;
    const to = toE164(submit.destination);
    if (!to) return this.refuse(systemId, submit, CommandStatus.ESME_RINVDSTADR);
    if (!isSupportedDataCoding(submit.dataCoding)) return this.refuse(systemId, submit, CommandStatus.ESME_RINVDCS);
    const split = splitUserData(submit.userData, (submit.esmClass & UDHI) !== 0);
    if (!split) return this.refuse(systemId, submit, CommandStatus.ESME_RINVMSGLEN);
    const duplicateKey =
      submit.userMessageReference === null
        ? undefined
        : DuplicateFilter.key({ systemId, destination: to, userMessageReference: submit.userMessageReference, userData: submit.userData });
    const original = duplicateKey === undefined ? undefined : this.duplicates.find(duplicateKey);
    if (original !== undefined) {
      stats.duplicates_dropped += 1;
      this.logger.info({ event: 'duplicate_dropped', systemId, to, messageId: original, userMessageReference: submit.userMessageReference });
      return { status: 0, messageId: original, receipt: null };
    }
    if (this.policy.random() < this.policy.rejectRate) {
      stats.rejected += 1;
      this.logger.debug({ event: 'submit_rejected', systemId, to });
      return { status: CommandStatus.ESME_RSUBMITFAIL, receipt: null };
    }
    const messageId = this.nextMessageId();
    stats.accepted += 1;
    if (duplicateKey !== undefined) this.duplicates.remember(duplicateKey, messageId);
    const delivered = !(this.policy.random() < this.policy.failureRate);
    const from = displaySource(submit.source, submit.sourceTon);
    const receivedAt = new Date();
    const concatenation = split.concatenation ?? (submit.sar ? { ...submit.sar, referenceBits: 16 as const } : null);
    const text = decodeText(submit.dataCoding, split.payload);
    const completed = this.reassembler.add({
      messageId,
      from,
      to,
      dataCoding: submit.dataCoding,
      payload: split.payload,
      text,
      concatenation,
      delivered,
      receivedAt,
    });
    if (this.logger.isLevelEnabled('debug')) this.logger.debug({ event: 'part_accepted', systemId, messageId, to, concatenation, delivered });
    if (completed?.delivered) {
      this.state.deliver(completed.message);
      if (this.logger.isLevelEnabled('info')) this.logger.info({ event: 'message', ...completed.message });
    } else if (completed) {
      this.logger.info({ event: 'message_undelivered', message_id: completed.message.message_id, from, to, parts: completed.message.parts });
    }
    const stat: ReceiptStat = delivered ? 'DELIVRD' : 'UNDELIV';
    return {
      status: 0,
      messageId,
      receipt: wantsReceipt(submit.registeredDelivery, delivered)
        ? {
            systemId,
            messageId,
            submittedAt: receivedAt,
            stat,
            text,
            handset: to.slice(1),
            sender: submit.source,
            senderTon: submit.sourceTon,
          }
        : null,
    };
  }

  private refuse(systemId: string, submit: SubmitSm, status: number): SubmitResult {
    this.state.stats.rejected += 1;
    this.logger.debug({ event: 'submit_refused', systemId, destination: submit.destination, status });
    return { status, receipt: null };
  }

  /** DELETE /messages: the inbox and incomplete messages go; the duplicate filter stays. */
  clear(): void {
    this.state.clearMessages();
    this.reassembler.clear();
  }
}

/**
 * registered_delivery bits 0-1: 1 = a receipt whatever the outcome, 2 = on failure only,
 * 3 = on success only (SMPP 5.0 5.2.17).
 */
function wantsReceipt(registeredDelivery: number, delivered: boolean): boolean {
  const request = registeredDelivery & 0x03;
  return request === 1 || (request === 2 && !delivered) || (request === 3 && delivered);
}
