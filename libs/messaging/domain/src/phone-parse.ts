/** The error text of the API for a number it cannot send to (messaging-api.md §7). */
export const INVALID_PHONE_NUMBER = 'Invalid phone number format';

export type PhoneParse = { ok: true; e164: string; country: string | null } | { ok: false; error: typeof INVALID_PHONE_NUMBER };

export const INVALID: PhoneParse = { ok: false, error: INVALID_PHONE_NUMBER };

/** E.164 as the API takes it: `+` then 8 to 15 digits, nothing else (decisions.md). */
const E164 = /^\+\d{8,15}$/;
const DIGITS_ONLY = /^\d{8,15}$/;

/** The `+digits` a number is read as (outer whitespace trimmed), or null when its form is refused. */
export function e164Candidate(input: string, allowMissingPlus: boolean): string | null {
  const text = input.trim();
  if (E164.test(text)) return text;
  if (allowMissingPlus && DIGITS_ONLY.test(text)) return `+${text}`;
  return null;
}
