import { formatMoney, moneyToJson, MoneyFormatError, parseMoney } from './money';

describe('money', () => {
  it.each([
    ['10', 100000n],
    ['0.035', 350n],
    ['0.0100', 100n],
    ['12.3400', 123400n],
    ['-1.5', -15000n],
    [' 7 ', 70000n],
  ])('parses %p exactly', (text, units) => {
    expect(parseMoney(text)).toBe(units);
  });

  it.each(['', 'abc', '1.23456', '1e3', '1,5', '0x10', '.5', '1.'])('refuses %p', (text) => {
    expect(() => parseMoney(text)).toThrow(MoneyFormatError);
  });

  it('formats with four decimals for Postgres numeric', () => {
    expect(formatMoney(100n)).toBe('0.0100');
    expect(formatMoney(-15000n)).toBe('-1.5000');
    expect(formatMoney(123456789012n)).toBe('12345678.9012');
  });

  it('adds exactly where binary floating point would not', () => {
    const tenth = parseMoney('0.1');
    const sum = tenth + parseMoney('0.2');
    expect(sum).toBe(parseMoney('0.3'));
    expect(moneyToJson(sum)).toBe(0.3);
  });

  it('round-trips through the JSON number', () => {
    for (const text of ['0.0001', '9.9999', '123456.7891', '0.035']) {
      expect(parseMoney(String(moneyToJson(parseMoney(text))))).toBe(parseMoney(text));
    }
  });
});
