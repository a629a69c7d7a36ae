import { createHash } from 'node:crypto';
import { joinInboundParts, readInboundPart, type InboundUserData } from '@mp/messaging-domain';
import { lockKeysInOrder, timeOrderedUuid } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import type { OutboxJob } from '@mp/queue-runtime';
import { OutboxRepository } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import type { KeywordResponder, KeywordResponse } from './keyword-responder';

/** One mobile-originated deliver_sm as the carrier read it, with the SMSC it came from. */
export interface ReceivedPart extends InboundUserData {
  smsc: string;
  /** The handset. */
  from: string;
  /** The platform's number it was sent to. */
  to: string;
}

/** The company a number is assigned to (SenderRegistry.ownerOf); null: none. */
export type NumberOwner = (number: string) => Promise<string | null>;

export type ReceiveOutcome =
  | {
      outcome: 'stored';
      messageId: string;
      companyId: string | null;
      /** What its text did as a keyword (STOP, START, HELP); null: not one, or no company. */
      keyword: KeywordResponse | null;
      outbox: { ids: string[]; jobs: OutboxJob[] };
    }
  | { outcome: 'waiting' }
  | { outcome: 'duplicate' };

export interface InboundStoreOptions {
  /** A single-part deliver_sm equal to one stored this recently is the SMSC's resend, not a new message. */
  duplicateWindowMs: number;
  /** Parts still waiting for their siblings this long are dropped; joined parts are kept as long (to drop resends). */
  fragmentTtlMs: number;
}

export const INBOUND_STORE_DEFAULTS: InboundStoreOptions = { duplicateWindowMs: 120_000, fragmentTtlMs: 3_600_000 };

/**
 * Stores inbound messages: a single part at once, the parts of a multipart message as fragments
 * until all are there, then the message (docs/decisions/0050-inbound-messages.md). Everything is
 * committed before receive resolves, so the deliver_sm is acknowledged only once it is stored; a
 * part sent again is recognised and stored once. The message.received job goes in the same
 * transaction (the outbox) when the message has a company, and so does what a keyword asks
 * (the KeywordResponder: the suppression list, the reply, the contact event).
 */
export class InboundStore {
  private readonly outbox: OutboxRepository;

  constructor(
    private readonly db: DataSource,
    private readonly ownerOf: NumberOwner,
    private readonly options: InboundStoreOptions = INBOUND_STORE_DEFAULTS,
    private readonly keywords: KeywordResponder | null = null,
  ) {
    this.outbox = new OutboxRepository(db);
  }

  /** Throws SmsTextError when the part cannot be read (an unknown data_coding, a broken UDH). */
  async receive(part: ReceivedPart): Promise<ReceiveOutcome> {
    const read = readInboundPart(part);
    const companyId = await this.ownerOf(part.to);
    const concatenation = read.concatenation;
    if (!concatenation) {
      const digest = digestOf(part);
      return this.db.transaction(async (manager) => {
        await lockKeysInOrder(manager, [`inbound:${digest}`]);
        const seen: unknown[] = await manager.query(
          `SELECT 1 FROM inbound_messages WHERE digest = $1 AND received_at > now() - make_interval(secs => $2::double precision / 1000)`,
          [digest, this.options.duplicateWindowMs],
        );
        if (seen.length > 0) return { outcome: 'duplicate' };
        return this.insertMessage(manager, part, { text: read.text, parts: 1, digest, companyId });
      });
    }
    const group = [part.smsc, part.from, part.to, concatenation.reference, concatenation.total] as const;
    return this.db.transaction(async (manager) => {
      await lockKeysInOrder(manager, [`inbound-fragments:${group.join('|')}`]);
      const inserted: unknown[] = await manager.query(
        `INSERT INTO inbound_fragments (smsc, sender, recipient, reference, total, index, text) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT DO NOTHING RETURNING 1`,
        [...group, concatenation.index, read.text],
      );
      if (inserted.length === 0) return { outcome: 'duplicate' };
      const siblings: { index: number; text: string }[] = await manager.query(
        `SELECT index, text FROM inbound_fragments
         WHERE smsc = $1 AND sender = $2 AND recipient = $3 AND reference = $4 AND total = $5 AND message_id IS NULL`,
        [...group],
      );
      const text = joinInboundParts(concatenation.total, siblings);
      if (text === null) return { outcome: 'waiting' };
      const digest = digestOf(part, `${concatenation.reference}/${concatenation.total}`);
      const stored = await this.insertMessage(manager, part, { text, parts: concatenation.total, digest, companyId });
      await manager.query(
        `UPDATE inbound_fragments SET message_id = $6
         WHERE smsc = $1 AND sender = $2 AND recipient = $3 AND reference = $4 AND total = $5 AND message_id IS NULL`,
        [...group, stored.messageId],
      );
      return stored;
    });
  }

  /** Drops fragments older than fragmentTtlMs (those never joined, and those joined long enough ago); returns how many. */
  async expireFragments(): Promise<{ dropped: number; incomplete: number }> {
    const rows: { joined: boolean }[] = await this.db.query(
      `WITH dropped AS (DELETE FROM inbound_fragments WHERE received_at < now() - make_interval(secs => $1::double precision / 1000) RETURNING message_id)
       SELECT message_id IS NOT NULL AS joined FROM dropped`,
      [this.options.fragmentTtlMs],
    );
    return { dropped: rows.length, incomplete: rows.filter((row) => !row.joined).length };
  }

  private async insertMessage(
    manager: EntityManager,
    part: ReceivedPart,
    message: { text: string; parts: number; digest: string; companyId: string | null },
  ): Promise<ReceiveOutcome & { outcome: 'stored' }> {
    const id = timeOrderedUuid();
    const [row]: { received_at: Date }[] = await manager.query(
      `INSERT INTO inbound_messages (id, company_id, sender, recipient, text, parts, smsc, digest) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING received_at`,
      [id, message.companyId, part.from, part.to, message.text, message.parts, part.smsc, message.digest],
    );
    const jobs: OutboxJob[] =
      message.companyId === null
        ? []
        : [
            {
              queue: QueueName.DeliveryEvents,
              jobName: 'inbound.received',
              jobId: `inbound-received-${id}`,
              data: { inboundMessageId: id, occurredAt: new Date(row.received_at).toISOString() },
              notBefore: new Date(),
              priority: null,
            },
          ];
    const ids = await this.outbox.insertMany(manager, jobs);
    const keyword =
      message.companyId !== null && this.keywords
        ? await this.keywords.respond(manager, {
            id,
            companyId: message.companyId,
            from: part.from,
            to: part.to,
            text: message.text,
            receivedAt: new Date(row.received_at),
          })
        : null;
    const outbox = keyword ? { ids: [...ids, ...keyword.outbox.ids], jobs: [...jobs, ...keyword.outbox.jobs] } : { ids, jobs };
    return { outcome: 'stored', messageId: id, companyId: message.companyId, keyword, outbox };
  }
}

/** What a resend of the same deliver_sm has in common with it. */
function digestOf(part: ReceivedPart, extra = ''): string {
  return createHash('sha256').update(`${part.smsc}\n${part.from}\n${part.to}\n${part.dataCoding}\n${extra}\n`).update(part.userData).digest('base64url');
}
