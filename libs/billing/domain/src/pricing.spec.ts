import { parseMoney } from './money';
import { DEFAULT_PRICES, findPrice, parsePriceRule, priceIndex, PriceRuleError, type PriceRule } from './pricing';

describe('pricing', () => {
  it('parses an operator rule exactly', () => {
    expect(parsePriceRule({ prefix: '+44', route: 'auto', price: '0.035' })).toEqual({
      prefix: '+44',
      route: 'auto',
      price: 350n,
    });
  });

  it.each([
    [{ prefix: '44', route: 'auto', price: '1' }, /prefix/],
    [{ prefix: '+44a', route: 'auto', price: '1' }, /prefix/],
    [{ prefix: '+44', route: 'gold', price: '1' }, /route/],
    [{ prefix: '+44', route: 'auto', price: '0.00001' }, /price/],
    [{ prefix: '+44', route: 'auto', price: '-1' }, /negative/],
  ])('refuses %p', (input, message) => {
    expect(() => parsePriceRule(input)).toThrow(PriceRuleError);
    expect(() => parsePriceRule(input)).toThrow(message);
  });

  it('picks the longest matching prefix on the route', () => {
    const rules = [
      ...DEFAULT_PRICES,
      { prefix: '+44', route: 'auto' as const, price: parseMoney('0.035') },
      { prefix: '+447', route: 'auto' as const, price: parseMoney('0.04') },
    ];
    expect(findPrice(rules, '+447911123456', 'auto')?.price).toBe(400n);
    expect(findPrice(rules, '+442071234567', 'auto')?.price).toBe(350n);
    expect(findPrice(rules, '+33612345678', 'auto')?.price).toBe(100n);
    expect(findPrice(rules, '+447911123456', 'premium')?.price).toBe(150n);
  });
});

describe('priceIndex', () => {
  it('answers what findPrice answers, for every number and route', () => {
    const rules: PriceRule[] = [
      { prefix: '+', route: 'auto', price: 100n },
      { prefix: '+33', route: 'auto', price: 200n },
      { prefix: '+336', route: 'auto', price: 300n },
      { prefix: '+44', route: 'premium', price: 400n },
    ];
    for (const route of ['auto', 'premium', 'standard'] as const) {
      const lookup = priceIndex(rules, route);
      for (const number of ['+33612345678', '+33123456789', '+447911123456', '+14155552671']) {
        expect(lookup(number)).toEqual(findPrice(rules, number, route));
      }
    }
  });
});
