import { parseMoney } from './money';
import { parseCreditAmount, parseTopUp, TopUpError } from './top-up';

describe('parseTopUp', () => {
  it('reads the amount exactly, with up to 4 decimals', () => {
    expect(parseTopUp({ amount: '10' })).toEqual({ amount: parseMoney('10'), reference: null });
    expect(parseTopUp({ amount: '0.035' }).amount).toBe(350n);
    expect(parseTopUp({ amount: '1234567890123456.9999' }).amount).toBe(12345678901234569999n);
  });

  it('refuses zero, negative, too precise and non-decimal amounts, naming the field', () => {
    for (const amount of ['0', '0.0000', '-3', '0.00001', '1e3', '10,5', '', ' ', 'NaN', '0x10']) {
      expect(() => parseTopUp({ amount })).toThrow(TopUpError);
    }
    expect(() => parseTopUp({ amount: '0' })).toThrow('amount must be more than zero');
    expect(() => parseTopUp({ amount: '1.23456' })).toThrow('amount must be a decimal with at most 4 decimals');
  });

  it('keeps a trimmed reference, and an empty one as none', () => {
    expect(parseTopUp({ amount: '5', reference: '  wire 2026-11-26 ' }).reference).toBe('wire 2026-11-26');
    expect(parseTopUp({ amount: '5', reference: '   ' }).reference).toBeNull();
    expect(parseTopUp({ amount: '5', reference: null }).reference).toBeNull();
  });

  it('refuses a reference that is too long or holds control characters', () => {
    expect(() => parseTopUp({ amount: '5', reference: 'x'.repeat(101) })).toThrow('reference must be 1 to 100 visible characters');
    expect(parseTopUp({ amount: '5', reference: 'x'.repeat(100) }).reference).toHaveLength(100);
    expect(() => parseTopUp({ amount: '5', reference: 'a\nb' })).toThrow(TopUpError);
    expect(() => parseTopUp({ amount: '5', reference: 'a\u200bb' })).toThrow(TopUpError);
  });
});

describe('parseCreditAmount', () => {
  it('allows zero when asked (an opening balance)', () => {
    expect(parseCreditAmount('0', 'balance', { allowZero: true })).toBe(0n);
    expect(() => parseCreditAmount('-1', 'balance', { allowZero: true })).toThrow('balance must be zero or more');
  });
});
