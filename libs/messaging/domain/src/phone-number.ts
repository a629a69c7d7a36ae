import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The error text of the API for a number it cannot send to (messaging-api.md §7). */
export const INVALID_PHONE_NUMBER = 'Invalid phone number format';

export type PhoneParse =
  | { ok: true; e164: string; country: string | null }
  | { ok: false; error: typeof INVALID_PHONE_NUMBER };

/** E.164 as the API takes it: `+` then 8 to 15 digits, nothing else (decisions.md). */
const E164 = /^\+\d{8,15}$/;
const DIGITS_ONLY = /^\d{8,15}$/;

const INVALID: PhoneParse = { ok: false, error: INVALID_PHONE_NUMBER };

/**
 * Checks a number against the numbering plan (libphonenumber's full metadata). Outer whitespace
 * is trimmed; spaces, dashes, dots or parentheses inside are refused. Without `+` a number is
 * refused unless `allowMissingPlus` (multi-recipient strings, bulk arrays), which reads it as if it
 * had one. The number must already be canonical: `+4407911123456` is refused, not rewritten.
 */
export function parsePhoneNumber(input: string, options: { allowMissingPlus?: boolean } = {}): PhoneParse {
  const candidate = withPlus(input.trim(), options.allowMissingPlus ?? false);
  if (candidate === null) return INVALID;
  const phone = parsePhoneNumberFromString(candidate);
  if (!phone || !phone.isValid() || phone.number !== candidate) return INVALID;
  return { ok: true, e164: phone.number, country: phone.country ?? null };
}

function withPlus(text: string, allowMissingPlus: boolean): string | null {
  if (E164.test(text)) return text;
  if (allowMissingPlus && DIGITS_ONLY.test(text)) return `+${text}`;
  return null;
}
