const E164 = /^\+\d{8,15}$/;
const HIDDEN_DIGITS = 4;

/**
 * The number without its last four digits: the range a fraud guard counts sends to, since
 * pumping traffic walks through the numbers of one range rather than repeating one number.
 */
export function numberPrefix(e164: string): string {
  if (!E164.test(e164)) throw new RangeError(`"${e164}" is not an E.164 number (+ then 8 to 15 digits)`);
  return e164.slice(0, -HIDDEN_DIGITS);
}
