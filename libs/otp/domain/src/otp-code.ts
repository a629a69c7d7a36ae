import { randomInt as cryptoRandomInt } from 'node:crypto';

/** How many digits an OTP code may have, and how many it has when the request names none. */
export const OTP_LENGTH = { min: 4, max: 8, default: 6 } as const;

/** A uniform random integer from 0 up to `max`, exclusive; tests pass a predictable one. */
export type RandomInt = (max: number) => number;

/**
 * A code of `length` digits, each drawn on its own from a cryptographic source: a code is as
 * hard to guess as its length allows only if every digit is equally likely. Leading zeros are
 * allowed, which is why a code is a string and never a number.
 */
export function generateOtpCode(length: number, randomInt: RandomInt = cryptoRandomInt): string {
  if (!isOtpLength(length)) {
    throw new RangeError(`an OTP code has from ${OTP_LENGTH.min} to ${OTP_LENGTH.max} digits, not ${length}`);
  }
  let code = '';
  for (let i = 0; i < length; i++) code += String(randomInt(10));
  return code;
}

/** 4 to 8 ASCII digits, and exactly `length` of them when given. */
export function isValidOtpCode(code: string, length?: number): boolean {
  if (!/^[0-9]{4,8}$/.test(code)) return false;
  return length === undefined || code.length === length;
}

function isOtpLength(length: number): boolean {
  return Number.isInteger(length) && length >= OTP_LENGTH.min && length <= OTP_LENGTH.max;
}
