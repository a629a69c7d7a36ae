import { numberPrefix } from './number-prefix';

describe('number-prefix', () => {
  it.each([
    ['+33612345678', '+3361234'],
    ['+447911123456', '+44791112'],
    ['+12345678', '+1234'],
    ['+123456789012345', '+12345678901'],
  ])('%p → %p', (e164, prefix) => {
    expect(numberPrefix(e164)).toBe(prefix);
  });

  it('gives the same prefix to the numbers of one range', () => {
    expect(numberPrefix('+33612340000')).toBe(numberPrefix('+33612349999'));
  });

  it.each(['33612345678', '+1234567', '+1234567890123456', '+33 612345678', '+3361234567a', ' +33612345678', ''])('refuses %p', (text) => {
    expect(() => numberPrefix(text)).toThrow(RangeError);
  });
});
