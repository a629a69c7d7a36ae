/**
 * A message's history, rebuilt from what its rows record (there is no event table): the times a
 * message and its parts keep, and the refunds the ledger keeps. What the rows do not keep is not
 * shown: when a scheduled message was released to the queue, each try of a submit that was
 * retried, the carriers' intermediate receipts (ENROUTE, ACCEPTD), and the carrier's own time in
 * a receipt (a part keeps when its receipt was applied).
 */
export type MessageEventName =
  /** Taken and charged (for a campaign's message: when its campaign was). */
  | 'accepted'
  /** To be sent at `scheduled_for`. */
  | 'scheduled'
  /** A campaign's message, made when its batch started. */
  | 'queued'
  /** A part accepted by a carrier, with the id the carrier gave it. */
  | 'submitted'
  /** The message's first part accepted by a carrier. */
  | 'sent'
  | 'delivered'
  | 'undelivered'
  | 'expired'
  | 'rejected'
  /** A part no carrier accepted (refused at submit, or given up after the last retry); the message when all its parts are. */
  | 'failed'
  | 'cancelled'
  | 'refunded';

export interface MessageEvent {
  at: string;
  event: MessageEventName;
  /** The part it happened to; null for the message itself. */
  part: number | null;
  /** What the rows say of it: carrier_message_id, receipt_stat, error_code, error_reason, scheduled_for, amount, campaign_id. */
  details: Record<string, string | number>;
}

export interface HistoryMessage {
  status: string;
  created_at: Date;
  scheduled_at: Date | null;
  sent_at: Date | null;
  completed_at: Date | null;
  cancelled_at: Date | null;
  error_code: string | null;
  error_reason: string | null;
  campaign_id: string | null;
  /** When its campaign was accepted (a campaign's message only). */
  campaign_created_at: Date | null;
}

export interface HistoryPart {
  part_index: number;
  status: string;
  carrier_message_id: string | null;
  receipt_stat: string | null;
  error_code: string | null;
  submitted_at: Date | null;
  completed_at: Date | null;
}

export interface HistoryRefund {
  at: Date;
  /** Exact, as a JSON number. */
  amount: number;
}

const FINAL = ['delivered', 'undelivered', 'expired', 'rejected', 'failed'];
/** Events of one instant in the order they happen. */
const ORDER: readonly MessageEventName[] = [
  'accepted',
  'scheduled',
  'queued',
  'submitted',
  'sent',
  'delivered',
  'undelivered',
  'expired',
  'rejected',
  'failed',
  'cancelled',
  'refunded',
];

type Dated = { at: Date; event: MessageEventName; part: number | null; details: Record<string, string | number | null> };

/** The events, oldest first (events of one instant in the order they happen, parts in order, the message after its parts). */
export function messageHistory(message: HistoryMessage, parts: readonly HistoryPart[], refunds: readonly HistoryRefund[]): MessageEvent[] {
  const events: (Dated | null)[] = [
    message.campaign_created_at && message.campaign_id
      ? { at: message.campaign_created_at, event: 'accepted', part: null, details: { campaign_id: message.campaign_id } }
      : { at: message.created_at, event: 'accepted', part: null, details: {} },
    message.scheduled_at ? { at: message.created_at, event: 'scheduled', part: null, details: { scheduled_for: message.scheduled_at.toISOString() } } : null,
    message.campaign_created_at && message.campaign_id ? { at: message.created_at, event: 'queued', part: null, details: {} } : null,
    ...parts.flatMap((part) => partEvents(part)),
    message.sent_at ? { at: message.sent_at, event: 'sent', part: null, details: {} } : null,
    FINAL.includes(message.status) && message.completed_at
      ? {
          at: message.completed_at,
          event: message.status as MessageEventName,
          part: null,
          details: { error_code: message.error_code, error_reason: message.error_reason },
        }
      : null,
    message.cancelled_at ? { at: message.cancelled_at, event: 'cancelled', part: null, details: {} } : null,
    ...refunds.map((refund): Dated => ({ at: refund.at, event: 'refunded', part: null, details: { amount: refund.amount } })),
  ];
  return events
    .filter((event): event is Dated => event !== null)
    .sort((a, b) => a.at.getTime() - b.at.getTime() || rank(a) - rank(b))
    .map((event) => ({ at: event.at.toISOString(), event: event.event, part: event.part, details: defined(event.details) }));
}

function partEvents(part: HistoryPart): Dated[] {
  const events: Dated[] = [];
  if (part.submitted_at) {
    events.push({ at: part.submitted_at, event: 'submitted', part: part.part_index, details: { carrier_message_id: part.carrier_message_id } });
  }
  if (FINAL.includes(part.status) && part.completed_at) {
    events.push({
      at: part.completed_at,
      event: part.status as MessageEventName,
      part: part.part_index,
      details: { receipt_stat: part.receipt_stat, error_code: part.error_code },
    });
  }
  return events;
}

/** Order within one instant: by event, parts by index, a message's final state after every part's. */
function rank(event: Dated): number {
  if (event.part === null && FINAL.includes(event.event)) return ORDER.indexOf('failed') * 1000 + 999;
  return ORDER.indexOf(event.event) * 1000 + (event.part ?? 0);
}

function defined(details: Record<string, string | number | null>): Record<string, string | number> {
  return Object.fromEntries(Object.entries(details).filter((entry): entry is [string, string | number] => entry[1] !== null));
}
