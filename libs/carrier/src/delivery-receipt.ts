// Delivery receipts as SMSCs send them: the de-facto text format of SMPP 3.4 Appendix B
// ("id:… sub:… dlvrd:… submit date:… done date:… stat:… err:… text:…") and, from SMPP 3.4 on,
// the receipted_message_id and message_state TLVs, which win when present.

export type ReceiptStat = 'DELIVRD' | 'EXPIRED' | 'DELETED' | 'UNDELIV' | 'ACCEPTD' | 'UNKNOWN' | 'REJECTD' | 'ENROUTE';

export interface DeliveryReceipt {
  /** The message_id of the submit_sm_resp this receipt is about. */
  carrierMessageId: string;
  stat: ReceiptStat;
  /** The network error code as the SMSC writes it ('000' when none); '' when absent. */
  err: string;
  doneAt: Date | null;
  /** The receipt text as received. */
  raw: string;
}

const STATS: Readonly<Record<string, ReceiptStat>> = {
  DELIVRD: 'DELIVRD',
  DELIVERED: 'DELIVRD',
  EXPIRED: 'EXPIRED',
  DELETED: 'DELETED',
  UNDELIV: 'UNDELIV',
  UNDELIVERABLE: 'UNDELIV',
  ACCEPTD: 'ACCEPTD',
  ACCEPTED: 'ACCEPTD',
  UNKNOWN: 'UNKNOWN',
  REJECTD: 'REJECTD',
  REJECTED: 'REJECTD',
  ENROUTE: 'ENROUTE',
};

/** message_state TLV values (SMPP 5.0 4.8.4.35). */
const MESSAGE_STATES: Readonly<Record<number, ReceiptStat>> = {
  0: 'ENROUTE', // SCHEDULED
  1: 'ENROUTE',
  2: 'DELIVRD',
  3: 'EXPIRED',
  4: 'DELETED',
  5: 'UNDELIV',
  6: 'ACCEPTD',
  7: 'UNKNOWN',
  8: 'REJECTD',
  9: 'UNDELIV', // SKIPPED
};

/**
 * The receipt in a deliver_sm, or null when it names no message or no state. Field names are
 * matched without regard to case or order; `done date` may also be written `done_date`. Dates
 * (YYMMDDhhmm, optionally ss) are read as UTC.
 */
export function parseDeliveryReceipt(shortMessage: string, tlvs: { receipted_message_id?: string; message_state?: number } = {}): DeliveryReceipt | null {
  // The quoted text comes last and may contain anything, "id:" included: read the fields before it.
  const textAt = shortMessage.search(/(^|\s)text:/i);
  const fields = textAt >= 0 ? shortMessage.slice(0, textAt) : shortMessage;
  const field = (pattern: RegExp): string | undefined => pattern.exec(fields)?.[1] ?? pattern.exec(shortMessage)?.[1];

  const tlvId = tlvs.receipted_message_id?.trim();
  const carrierMessageId = tlvId ? tlvId : field(/(?:^|\s)id:\s*(\S+)/i);
  const tlvStat = tlvs.message_state === undefined ? undefined : MESSAGE_STATES[tlvs.message_state];
  const textStat = field(/(?:^|\s)stat:\s*([A-Za-z_]+)/i);
  const stat = tlvStat ?? (textStat === undefined ? undefined : (STATS[textStat.toUpperCase()] ?? 'UNKNOWN'));
  if (!carrierMessageId || !stat) return null;
  return {
    carrierMessageId,
    stat,
    err: field(/(?:^|\s)err:\s*(\S+)/i) ?? '',
    doneAt: parseSmppDate(field(/(?:^|\s)done[ _]?date:\s*(\d{10,12})/i)),
    raw: shortMessage,
  };
}

/** YYMMDDhhmm[ss] as a UTC date in 2000-2099; null when absent or not a real date. */
export function parseSmppDate(value: string | undefined): Date | null {
  const match = value === undefined ? null : /^(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const date = new Date(Date.UTC(2000 + year, month - 1, day, hour, minute, second));
  const valid = date.getUTCMonth() === month - 1 && date.getUTCDate() === day && hour < 24 && minute < 60 && second < 60;
  return valid ? date : null;
}
