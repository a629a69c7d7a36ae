import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { validatePhoneNumber } from './bulk-phone-validator';
import { e164Candidate, INVALID, type PhoneParse } from './phone-parse';

export { INVALID_PHONE_NUMBER, type PhoneParse } from './phone-parse';

export interface PhoneParseOptions {
  /** Read a number without `+` as if it had one (multi-recipient strings, bulk arrays). */
  allowMissingPlus?: boolean;
}

/**
 * Checks a number against the numbering plan (libphonenumber's full metadata). Outer whitespace
 * is trimmed; spaces, dashes, dots or parentheses inside are refused. Without `+` a number is
 * refused unless `allowMissingPlus`. The number must already be canonical: `+4407911123456` is
 * refused, not rewritten. The verdicts are libphonenumber-js's (parsePhoneNumberWithLibrary),
 * replayed on patterns compiled once: the library builds them anew for every number
 * (docs/decisions/0004-compiled-numbering-plans.md).
 */
export function parsePhoneNumber(input: string, options: PhoneParseOptions = {}): PhoneParse {
  return validatePhoneNumber(input, options.allowMissingPlus ?? false);
}

/** parsePhoneNumber by libphonenumber-js itself: the reference the compiled plans are tested against. */
export function parsePhoneNumberWithLibrary(input: string, options: PhoneParseOptions = {}): PhoneParse {
  const candidate = e164Candidate(input, options.allowMissingPlus ?? false);
  if (candidate === null) return INVALID;
  const phone = parsePhoneNumberFromString(candidate);
  if (!phone || !phone.isValid() || phone.number !== candidate) return INVALID;
  return { ok: true, e164: phone.number, country: phone.country ?? null };
}
