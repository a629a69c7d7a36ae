import type { PDU } from 'smpp';
import { type DeliveryReceipt, parseDeliveryReceipt } from './delivery-receipt';

/** esm_class bits 2-5 of a deliver_sm carrying an MC delivery receipt. */
const RECEIPT_ESM_CLASS = 0x04;

/**
 * The delivery receipt a deliver_sm carries: undefined when it is not a receipt (a mobile
 * originated message, say), null when it is one that cannot be read.
 */
export function receiptOf(pdu: PDU): DeliveryReceipt | null | undefined {
  if ((Number(pdu['esm_class'] ?? 0) & 0x3c) !== RECEIPT_ESM_CLASS) return undefined;
  const text = messageText(pdu['short_message']) || messageText(pdu['message_payload']);
  const receiptedId = pdu['receipted_message_id'];
  const state = pdu['message_state'];
  return parseDeliveryReceipt(text, {
    ...(typeof receiptedId === 'string' ? { receipted_message_id: receiptedId } : {}),
    ...(typeof state === 'number' ? { message_state: state } : {}),
  });
}

/** The text of short_message or message_payload as the smpp package decodes it (a string, a Buffer, or { udh, message }). */
export function messageText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('latin1');
  if (value && typeof value === 'object' && 'message' in value) return messageText((value as { message: unknown }).message);
  return '';
}
