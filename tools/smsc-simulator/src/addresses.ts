/** Type of number (SMPP 5.2.5). */
export const Ton = { UNKNOWN: 0, INTERNATIONAL: 1, ALPHANUMERIC: 5 } as const;

/**
 * A destination as E.164 with '+': the digits with or without a leading '+' (or 00, URL-decoded
 * '+' as a space); null when it is not 1 to 15 digits.
 */
export function toE164(address: string): string | null {
  const digits = address.trim().replace(/^(\+|00)/, '');
  return /^[0-9]{1,15}$/.test(digits) ? `+${digits}` : null;
}

/** A sender as the handset shows it: an international number with '+', anything else as sent. */
export function displaySource(address: string, ton: number): string {
  if (ton === Ton.INTERNATIONAL && /^\+?[0-9]{1,15}$/.test(address)) return `+${address.replace(/^\+/, '')}`;
  return address;
}
