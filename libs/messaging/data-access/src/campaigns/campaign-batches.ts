import { parseMoney } from '@mp/billing-domain';
import { splitSms } from '@mp/messaging-domain';
import { timeOrderedUuid } from '@mp/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { DispatchMessage } from '../dispatch-load';
import type { MessageRepository, NewMessage } from '../message.repository';
import { userMessageReferences } from '../part-references';

interface BatchRow {
  id: string;
  campaign_id: string;
  company_id: string;
  status: string;
  recipients: string[];
  bodies: string[] | null;
  message_references: (string | null)[] | null;
  senders: (string | null)[] | null;
  parts: number[];
  prices: string[];
  campaign_body: string | null;
  campaign_sender: string;
  campaign_reference: string | null;
  webhook_url: string | null;
  route: string;
}

/**
 * What a batch job has to do: submit these messages, or nothing (cancelled or already done).
 * Messages it has just made come whole (`messages`), as they were inserted, so they need not be
 * read back; those of a batch started before come as ids, to be loaded with their parts' states.
 */
export type BatchWork = { kind: 'submit'; campaignId: string; messageIds: string[]; messages?: DispatchMessage[] } | { kind: 'nothing'; status: string };

/**
 * How a batch makes its messages: `slice` at a time (each built just before its INSERT), with
 * `between` awaited before every slice after the first, all in the batch's one transaction.
 */
export interface BatchSlicing {
  slice: number;
  between: () => Promise<void>;
}

/**
 * A campaign batch becomes its message rows once: the batch row is locked and moves from
 * queued (or scheduled) to processing in the same transaction that inserts its messages, so a
 * job that runs again finds them instead of making them twice. Without `slicing` they are made
 * and inserted all at once.
 */
export class CampaignBatchStore {
  constructor(
    private readonly db: DataSource,
    private readonly messages: MessageRepository,
  ) {}

  async start(batchId: string, now: Date = new Date(), slicing?: BatchSlicing): Promise<BatchWork> {
    return this.db.transaction(async (manager) => {
      const [batch] = (await manager.query(
        `SELECT b.id, b.campaign_id, c.company_id, b.status, b.recipients, b.bodies, b.message_references, b.senders, b.parts, b.prices::text[] AS prices,
           c.body AS campaign_body, c.sender AS campaign_sender, c.reference AS campaign_reference, c.webhook_url, c.route
         FROM campaign_batches b JOIN campaigns c ON c.id = b.campaign_id WHERE b.id = $1 FOR UPDATE OF b`,
        [batchId],
      )) as BatchRow[];
      if (!batch) return { kind: 'nothing', status: 'missing' };
      if (batch.status === 'processing') return { kind: 'submit', campaignId: batch.campaign_id, messageIds: await messagesOf(manager, batchId) };
      if (batch.status !== 'queued' && batch.status !== 'scheduled') return { kind: 'nothing', status: batch.status };
      const messages = await this.make(manager, batch, slicing);
      await manager.query(`UPDATE campaign_batches SET status = 'processing', started_at = $2 WHERE id = $1`, [batchId, now]);
      await manager.query(`UPDATE campaigns SET status = 'processing' WHERE id = $1 AND status IN ('queued', 'scheduled')`, [batch.campaign_id]);
      return { kind: 'submit', campaignId: batch.campaign_id, messageIds: messages.map((m) => m.id), messages: messages.map(asDispatched) };
    });
  }

  /** Builds and inserts the batch's messages, in slices if asked. */
  private async make(manager: EntityManager, batch: BatchRow, slicing?: BatchSlicing): Promise<NewMessage[]> {
    const size = slicing ? Math.max(1, Math.floor(slicing.slice)) : batch.recipients.length;
    const made: NewMessage[] = [];
    for (let from = 0; from < batch.recipients.length; from += size) {
      if (from > 0) await slicing?.between();
      const slice = messagesFor(batch, from, Math.min(batch.recipients.length, from + size));
      await this.messages.insertMany(manager, slice);
      for (const message of slice) made.push(message);
    }
    return made;
  }

  /** Every message of the batch was handed to the carrier (or failed for good). */
  async finish(batchId: string, now: Date = new Date()): Promise<void> {
    await this.db.query(`UPDATE campaign_batches SET status = 'dispatched', dispatched_at = $2 WHERE id = $1 AND status = 'processing'`, [batchId, now]);
  }
}

async function messagesOf(manager: EntityManager, batchId: string): Promise<string[]> {
  const rows: { id: string }[] = await manager.query(`SELECT id FROM messages WHERE batch_id = $1 ORDER BY batch_index`, [batchId]);
  return rows.map((row) => row.id);
}

/** A message just inserted, as the dispatcher would load it: queued, every part pending. */
function asDispatched(message: NewMessage): DispatchMessage {
  return {
    id: message.id,
    status: message.status,
    sender: message.sender,
    recipient: message.recipient,
    body: message.body,
    bodySealed: false,
    route: message.route,
    webhookUrl: message.webhookUrl,
    parts: message.partReferences.map((userMessageReference, i) => ({ index: i + 1, status: 'pending', userMessageReference, carrierMessageId: null })),
  };
}

/** The messages of the batch's recipients from index `from` up to `to` (excluded). */
function messagesFor(batch: BatchRow, from: number, to: number): NewMessage[] {
  const encodings = new Map<string, NewMessage['encoding']>();
  const encodingOf = (text: string) => {
    let encoding = encodings.get(text);
    if (!encoding) encodings.set(text, (encoding = splitSms(text).encoding));
    return encoding;
  };
  const messages: NewMessage[] = [];
  for (let i = from; i < to; i++) {
    const recipient = batch.recipients[i];
    const id = timeOrderedUuid();
    const body = batch.bodies?.[i] ?? batch.campaign_body ?? '';
    const price = parseMoney(batch.prices[i]);
    const parts = batch.parts[i];
    messages.push({
      id,
      companyId: batch.company_id,
      requestId: batch.campaign_id,
      route: batch.route,
      sender: batch.senders?.[i] ?? batch.campaign_sender,
      recipient,
      body,
      encoding: encodingOf(body),
      parts,
      pricePerPart: price,
      cost: price * BigInt(parts),
      reference: batch.message_references?.[i] ?? batch.campaign_reference,
      webhookUrl: batch.webhook_url,
      status: 'queued',
      scheduledAt: null,
      partReferences: userMessageReferences(id, parts),
      campaignId: batch.campaign_id,
      batchId: batch.id,
      batchIndex: i + 1,
    });
  }
  return messages;
}
