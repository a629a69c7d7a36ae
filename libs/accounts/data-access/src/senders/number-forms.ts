/** The longest short code (parseNumber takes 3 to 8 digits). */
export const SHORT_CODE_MAX_DIGITS = 8;

/** An address a carrier gave: digits, with a `+` when its TON said international. */
const ADDRESS = /^\+?\d{1,17}$/;

/**
 * The values a number assigned with parseNumber may be stored as that name the platform's
 * address a carrier gave (a deliver_sm's destination), the likelier first; [] when it is not a
 * number. A long code is stored in E.164 with its `+`, a short code as its digits, and carriers
 * write either way: a long number without `+` (TON unknown or national), a short code with `+`
 * (TON international), or an international number after the `00` prefix. So digits that can only
 * be a long number (more than 8) look up the E.164 form only; 8 digits or fewer look up both, the
 * short code first unless the carrier said international (docs/decisions/0058-short-codes-and-unassigned-inbound.md).
 */
export function receivedNumberForms(address: string): string[] {
  const trimmed = address.trim();
  if (!ADDRESS.test(trimmed)) return [];
  const international = trimmed.startsWith('+');
  let digits = trimmed.replace(/^\+/, '');
  if (digits.startsWith('00') && digits.length > SHORT_CODE_MAX_DIGITS + 2) digits = digits.slice(2);
  if (digits.length > 15) return [];
  if (digits.length > SHORT_CODE_MAX_DIGITS) return [`+${digits}`];
  return international ? [`+${digits}`, digits] : [digits, `+${digits}`];
}
