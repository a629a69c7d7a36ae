/** The sender when a request names none (decisions.md: the parameter table's default wins). */
export const DEFAULT_SMS_SENDER = 'SMS';

export const INVALID_SENDER = 'from must be 1-11 letters, digits or spaces with at least one letter, or a phone number of up to 15 digits';

export type SenderCheck = { ok: true; sender: string; kind: 'alphanumeric' | 'numeric' } | { ok: false; error: string };

/** A number sender: up to 15 digits, optionally after `+`. */
const NUMERIC = /^\+?\d{1,15}$/;
/** An alphanumeric sender: 1 to 11 ASCII letters, digits or spaces. */
const ALPHANUMERIC = /^[A-Za-z0-9 ]{1,11}$/;
const LETTER = /[A-Za-z]/;

/** Checks a sender id (decisions.md); outer spaces are trimmed, inner ones kept. */
export function checkSender(input: string): SenderCheck {
  const sender = input.trim();
  if (NUMERIC.test(sender)) return { ok: true, sender, kind: 'numeric' };
  if (ALPHANUMERIC.test(sender) && LETTER.test(sender)) return { ok: true, sender, kind: 'alphanumeric' };
  return { ok: false, error: INVALID_SENDER };
}
