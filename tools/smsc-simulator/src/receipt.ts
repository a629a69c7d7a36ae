// Delivery receipts in the de-facto standard format (SMPP 3.4 Appendix B), which ESMEs parse.

export type ReceiptStat = 'DELIVRD' | 'UNDELIV';

/** message_state TLV values (SMPP 5.0 4.8.4.35). */
export const MessageState = { DELIVERED: 2, UNDELIVERABLE: 5 } as const;

export interface ReceiptFields {
  messageId: string;
  submittedAt: Date;
  doneAt: Date;
  stat: ReceiptStat;
  /** The text of the part the receipt is for; its first 20 characters are quoted. */
  text: string;
}

/** `id:… sub:001 dlvrd:001 submit date:YYMMDDhhmm done date:YYMMDDhhmm stat:… err:… text:…` */
export function receiptText({ messageId, submittedAt, doneAt, stat, text }: ReceiptFields): string {
  const delivered = stat === 'DELIVRD';
  return [
    `id:${messageId}`,
    'sub:001',
    `dlvrd:${delivered ? '001' : '000'}`,
    `submit date:${smppDate(submittedAt)}`,
    `done date:${smppDate(doneAt)}`,
    `stat:${stat}`,
    `err:${delivered ? '000' : '001'}`,
    `text:${firstCharacters(text, 20)}`,
  ].join(' ');
}

/** The first `count` characters (code points, not UTF-16 units) of a text. */
function firstCharacters(text: string, count: number): string {
  if (text.length <= count) return text;
  let end = 0;
  for (let seen = 0; seen < count && end < text.length; seen += 1) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
  return text.slice(0, end);
}

export function messageState(stat: ReceiptStat): number {
  return stat === 'DELIVRD' ? MessageState.DELIVERED : MessageState.UNDELIVERABLE;
}

/** YYMMDDhhmm in UTC. */
export function smppDate(date: Date): string {
  // Receipts come by the thousand a second and a minute's dates are all the same.
  const minute = Math.floor(date.getTime() / 60_000);
  if (minute !== lastDate.minute) lastDate = { minute, text: formatSmppDate(date) };
  return lastDate.text;
}

let lastDate = { minute: Number.NaN, text: '' };

function formatSmppDate(date: Date): string {
  const two = (value: number): string => String(value).padStart(2, '0');
  return two(date.getUTCFullYear() % 100) + two(date.getUTCMonth() + 1) + two(date.getUTCDate()) + two(date.getUTCHours()) + two(date.getUTCMinutes());
}
