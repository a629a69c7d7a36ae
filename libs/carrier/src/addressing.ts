/** An SMPP address with its type of number (TON) and numbering plan (NPI). */
export interface SmppAddress {
  ton: number;
  npi: number;
  address: string;
}

/**
 * The source address of a sender (decisions.md "SMS"): an alphanumeric sender (1 to 11 letters,
 * digits and spaces, at least one letter) is TON 5 NPI 0; a number (up to 15 digits, optionally
 * with '+') is TON 1 NPI 1 without the '+'. Null for anything else.
 */
export function sourceAddress(sender: string): SmppAddress | null {
  if (/^\+?[0-9]{1,15}$/.test(sender)) return { ton: 1, npi: 1, address: sender.replace(/^\+/, '') };
  if (/^[A-Za-z0-9 ]{1,11}$/.test(sender) && /[A-Za-z]/.test(sender)) return { ton: 5, npi: 0, address: sender };
  return null;
}

/** An E.164 number ('+' and up to 15 digits) as TON 1 NPI 1 without the '+'; null otherwise. */
export function destinationAddress(number: string): SmppAddress | null {
  return /^\+[1-9][0-9]{0,14}$/.test(number) ? { ton: 1, npi: 1, address: number.slice(1) } : null;
}
