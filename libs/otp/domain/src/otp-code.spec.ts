import { generateOtpCode, isValidOtpCode, OTP_LENGTH } from './otp-code';

describe('otp-code', () => {
  it('has lengths from 4 to 8, 6 by default', () => {
    expect(OTP_LENGTH).toEqual({ min: 4, max: 8, default: 6 });
  });

  it.each([4, 5, 6, 7, 8])('generates %p digits', (length) => {
    const code = generateOtpCode(length);
    expect(code).toMatch(new RegExp(`^[0-9]{${length}}$`));
    expect(isValidOtpCode(code, length)).toBe(true);
  });

  it.each([3, 9, 0, -6, 6.5, Number.NaN])('refuses length %p', (length) => {
    expect(() => generateOtpCode(length)).toThrow(RangeError);
  });

  it('draws each digit from the random source and keeps leading zeros', () => {
    const draws = [0, 0, 7, 0, 9, 1];
    const asked: number[] = [];
    const code = generateOtpCode(6, (max) => {
      asked.push(max);
      return draws[asked.length - 1];
    });
    expect(code).toBe('007091');
    expect(asked).toEqual([10, 10, 10, 10, 10, 10]);
  });

  it('uses every digit over many codes', () => {
    const seen = new Set(Array.from({ length: 200 }, () => generateOtpCode(8)).join(''));
    expect(seen.size).toBe(10);
  });

  it.each([
    ['1234', undefined, true],
    ['00000000', undefined, true],
    ['012345', 6, true],
    ['012345', 4, false],
    ['123', undefined, false],
    ['123456789', undefined, false],
    ['12a456', undefined, false],
    [' 123456', undefined, false],
    ['123456\n', undefined, false],
    ['١٢٣٤٥٦', undefined, false],
    ['', undefined, false],
  ])('checks %p (length %p) → %p', (code, length, valid) => {
    expect(isValidOtpCode(code, length)).toBe(valid);
  });
});
