import { checkCarrierChanges, checkCarrierSettings, integerSetting, type CarrierSettings } from './carrier-settings';
import { checkRouteRule, normalCost, parseCost, type RouteRule } from './route-rule';
import { RoutingInputError } from './routing-errors';

const carrier: CarrierSettings = {
  name: 'acme-uk',
  host: 'smpp.acme.example',
  port: 2775,
  systemId: 'acme',
  password: 's3cret',
  systemType: null,
  binds: 2,
  window: 50,
  maxPerSecond: 0,
  tls: true,
};
const rule: RouteRule = { prefix: '+44', route: 'auto', carrier: 'acme-uk', priority: 1, cost: '0.004', weight: null };

describe('carrier settings', () => {
  it('accepts a carrier within every range', () => {
    expect(checkCarrierSettings(carrier)).toEqual(carrier);
    expect(checkCarrierSettings({ ...carrier, host: '10.0.0.7', port: 65535, binds: 32, window: 1000, maxPerSecond: 100_000, password: '' })).toBeTruthy();
  });

  it.each([
    [{ name: 'acme uk' }, /--name must be/],
    [{ name: '-acme' }, /--name must be/],
    [{ host: 'smpp acme' }, /--host must be/],
    [{ port: 0 }, /--port must be an integer from 1 to 65535/],
    [{ port: 65536 }, /--port must be an integer from 1 to 65535/],
    [{ binds: 0 }, /--binds must be an integer from 1 to 32/],
    [{ window: 1.5 }, /--window must be an integer/],
    [{ maxPerSecond: -1 }, /--max-per-second must be an integer from 0 to 100000/],
    [{ systemId: '' }, /--system-id must be 1 to 64/],
  ])('refuses %p with a message naming the option', (change, message) => {
    expect(() => checkCarrierSettings({ ...carrier, ...change })).toThrow(message);
    expect(() => checkCarrierSettings({ ...carrier, ...change })).toThrow(RoutingInputError);
  });

  it('never repeats a refused password in its message', () => {
    const password = `secret\u0001${'x'.repeat(70)}`;
    expect(() => checkCarrierChanges({ password })).toThrow(/--password must be 0 to 64 printable characters$/);
  });

  it('parses integer options strictly, naming the option and the range', () => {
    expect(integerSetting('port', ' 2776 ', [1, 65535])).toBe(2776);
    for (const text of ['abc', '27.5', '1e3', '', '70000'])
      expect(() => integerSetting('port', text, [1, 65535])).toThrow(`--port must be an integer from 1 to 65535 (got "${text}")`);
  });
});

describe('route rules', () => {
  it('accepts the catch-all prefix and a split', () => {
    expect(checkRouteRule({ ...rule, prefix: '+', weight: 100, cost: null })).toBeTruthy();
  });

  it.each([
    [{ prefix: '44' }, /--prefix must be "\+" followed by up to 15 digits/],
    [{ prefix: '+44 1' }, /--prefix/],
    [{ prefix: '+1234567890123456' }, /--prefix/],
    [{ route: 'gold' as never }, /--route must be one of auto, standard, premium/],
    [{ priority: -1 }, /--priority must be an integer from 0/],
    [{ weight: 0 }, /--weight must be a percentage from 1 to 100/],
    [{ weight: 101 }, /--weight must be a percentage/],
    [{ cost: '-0.004' }, /--cost must not be negative/],
    [{ cost: '0.00001' }, /--cost must be a decimal with at most 4 decimals/],
    [{ cost: '1e-3' }, /--cost must be a decimal/],
  ])('refuses %p', (change, message) => {
    expect(() => checkRouteRule({ ...rule, ...change })).toThrow(message);
  });

  it('keeps costs exact, in their shortest form', () => {
    expect(parseCost('0.0040')).toBe('0.004');
    expect(parseCost('007')).toBe('7');
    expect(normalCost('0.0041')).toBe('0.0041');
    expect(normalCost('1.0000')).toBe('1');
    expect(normalCost('0.0000')).toBe('0');
  });
});
