import type { LedgerRepository } from '@mp/billing';
import type { PriceRule } from '@mp/billing-domain';
import { keywordReply, type KeywordIntent } from '@mp/messaging-domain';
import { QueueName } from '@mp/queue-contracts';
import type { OutboxJob, OutboxRepository } from '@mp/queue-runtime';
import type { EntityManager } from 'typeorm';
import { writeLockedAcceptances } from '../acceptance-writer';
import type { MessageRepository } from '../message.repository';
import { applyInboundKeyword } from '../opt-outs/keyword-opt-outs';
import { canonicalNumber } from '../opt-outs/opt-out-store';
import { NoPriceError, prepareSend } from '../send-preparation';

/** An inbound message of a company, just stored in the transaction the responder runs in. */
export interface StoredInbound {
  id: string;
  companyId: string;
  /** The handset. */
  from: string;
  /** The company's number it was sent to. */
  to: string;
  text: string;
  receivedAt: Date;
}

/** What a keyword did: the list changed or not, the reply written (charged, its dispatch jobs in `dispatchJobs`) or why not. */
export interface KeywordResponse {
  intent: KeywordIntent;
  changed: boolean;
  reply: { messageId: string } | { skipped: 'no price' | 'insufficient balance' };
  /** Outbox rows inserted with the reply (its sms.submit jobs) and the contact event: to relay after commit. */
  outbox: { ids: string[]; jobs: OutboxJob[] };
}

export interface KeywordResponderOptions {
  /** The operator's own opt-out keywords (OPT_OUT_KEYWORDS), added to the standard ones. */
  extraOptOutKeywords: readonly string[];
  /** The price table, read when a reply is written (keywords are rare: no cache). */
  prices: () => Promise<readonly PriceRule[]>;
}

interface CompanyReplies {
  name: string;
  opt_out_reply: string | null;
  opt_in_reply: string | null;
  help_reply: string | null;
}

/**
 * Answers an inbound keyword (issue 30, item 3; docs/decisions/0053-keyword-replies.md) in the
 * transaction that stores the inbound message, so the message, its effect on the suppression
 * list, the reply and the contact event commit together, once: a deliver_sm sent again is
 * recognised before this runs. The reply is an ordinary outbound message from the number written
 * to, charged at the price table like any send (reference `keyword-reply:<inbound id>`); it goes
 * even to the contact that just opted out, as the CTIA rules ask. A company that cannot pay for
 * it, or a destination without a price, gets no reply, and the opt-out still holds.
 */
export class KeywordResponder {
  constructor(
    private readonly messages: MessageRepository,
    private readonly ledger: LedgerRepository,
    private readonly outbox: OutboxRepository,
    private readonly options: KeywordResponderOptions,
  ) {}

  /** Null when the text is not a keyword. */
  async respond(manager: EntityManager, inbound: StoredInbound): Promise<KeywordResponse | null> {
    const outcome = await applyInboundKeyword(manager, {
      companyId: inbound.companyId,
      phone: canonicalNumber(inbound.from),
      number: inbound.to,
      text: inbound.text,
      extraOptOutKeywords: this.options.extraOptOutKeywords,
    });
    if (outcome === null) return null;
    const replied = await this.writeReply(manager, inbound, outcome.intent);
    const event = outcome.changed && outcome.intent !== 'help' ? [contactEventJob(inbound, outcome.intent)] : [];
    const eventIds = event.length > 0 ? await this.outbox.insertMany(manager, event) : [];
    return {
      intent: outcome.intent,
      changed: outcome.changed,
      reply: replied.reply,
      outbox: { ids: [...replied.outbox.ids, ...eventIds], jobs: [...replied.outbox.jobs, ...event] },
    };
  }

  private async writeReply(
    manager: EntityManager,
    inbound: StoredInbound,
    intent: KeywordIntent,
  ): Promise<Pick<KeywordResponse, 'reply'> & { outbox: { ids: string[]; jobs: OutboxJob[] } }> {
    const [company]: CompanyReplies[] = await manager.query(`SELECT name, opt_out_reply, opt_in_reply, help_reply FROM companies WHERE id = $1`, [
      inbound.companyId,
    ]);
    const body = keywordReply(intent, company.name, { optOut: company.opt_out_reply, optIn: company.opt_in_reply, help: company.help_reply });
    let send;
    try {
      const command = {
        companyId: inbound.companyId,
        sender: canonicalNumber(inbound.to),
        route: 'auto' as const,
        body,
        recipients: [canonicalNumber(inbound.from)],
        reference: `keyword-reply:${inbound.id}`,
        webhookUrl: null,
        scheduledAt: null,
      };
      send = prepareSend(command, await this.options.prices());
    } catch (error) {
      if (error instanceof NoPriceError) return { reply: { skipped: 'no price' }, outbox: { ids: [], jobs: [] } };
      throw error;
    }
    const written = await writeLockedAcceptances(manager, this.ledger, this.messages, [send]);
    if (!written.outcomes[0].ok) return { reply: { skipped: 'insufficient balance' }, outbox: { ids: [], jobs: [] } };
    return { reply: { messageId: send.rows[0].id }, outbox: written.outbox };
  }
}

function contactEventJob(inbound: StoredInbound, intent: Exclude<KeywordIntent, 'help'>): OutboxJob {
  const type = intent === 'opt_in' ? 'contact.opted_in' : 'contact.opted_out';
  return {
    queue: QueueName.DeliveryEvents,
    jobName: 'contact.event',
    jobId: `${type}-${inbound.id}`,
    data: { inboundMessageId: inbound.id, type, occurredAt: inbound.receivedAt.toISOString() },
    notBefore: new Date(),
    priority: null,
  };
}
