import { candidateIndex, candidatesFor, compareCost } from './candidates';
import type { RouteEntry } from './route-entry';

const route = (prefix: string, carrierId: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({
  prefix,
  routeClass: 'auto',
  carrierId,
  priority: 1,
  ...extra,
});
const carriersOf = (entries: RouteEntry[]) => entries.map((entry) => entry.carrierId);

describe('candidatesFor', () => {
  const table = [route('+', 'global'), route('+44', 'uk-a'), route('+44', 'uk-b', { priority: 2 }), route('+4474', 'uk-mobile'), route('+33', 'fr')];

  it('takes every entry of the longest matching prefix, and only those', () => {
    expect(carriersOf(candidatesFor(table, '+447400123456', 'auto'))).toEqual(['uk-mobile']);
    expect(carriersOf(candidatesFor(table, '+442071234567', 'auto'))).toEqual(['uk-a', 'uk-b']);
    expect(carriersOf(candidatesFor(table, '+4915112345678', 'auto'))).toEqual(['global']);
  });

  it('finds nothing when no prefix matches', () => {
    expect(candidatesFor([route('+44', 'uk-a')], '+33612345678', 'standard')).toEqual([]);
    expect(candidatesFor([], '+33612345678', 'auto')).toEqual([]);
  });

  it("uses a class's own entries before auto ones, even under a longer auto prefix", () => {
    const withPremium = [...table, route('+44', 'uk-premium', { routeClass: 'premium' })];
    expect(carriersOf(candidatesFor(withPremium, '+447400123456', 'premium'))).toEqual(['uk-premium']);
    expect(carriersOf(candidatesFor(withPremium, '+33612345678', 'premium'))).toEqual(['fr']);
    expect(carriersOf(candidatesFor(withPremium, '+447400123456', 'standard'))).toEqual(['uk-mobile']);
    expect(carriersOf(candidatesFor(withPremium, '+447400123456', 'auto'))).toEqual(['uk-mobile']);
  });

  it('lets an auto message fall back to standard routes, never to premium ones', () => {
    const classed = [route('+44', 'std', { routeClass: 'standard' }), route('+44', 'prem', { routeClass: 'premium' })];
    expect(carriersOf(candidatesFor(classed, '+447400123456', 'auto'))).toEqual(['std']);
    expect(candidatesFor([route('+44', 'prem', { routeClass: 'premium' })], '+447400123456', 'auto')).toEqual([]);
    expect(candidatesFor([route('+44', 'std', { routeClass: 'standard' })], '+447400123456', 'premium')).toEqual([]);
  });

  it('keeps one entry per carrier, its lowest priority', () => {
    const doubled = [route('+44', 'a', { priority: 5 }), route('+44', 'a', { priority: 2 }), route('+44', 'b', { priority: 3 })];
    expect(candidatesFor(doubled, '+447400123456', 'auto').map((e) => [e.carrierId, e.priority])).toEqual([
      ['a', 2],
      ['b', 3],
    ]);
  });
});

describe('compareCost', () => {
  it('orders known costs ascending and unknown ones last', () => {
    const entries = [route('+', 'none'), route('+', 'dear', { cost: 50n }), route('+', 'cheap', { cost: 30n })];
    expect(carriersOf([...entries].sort(compareCost))).toEqual(['cheap', 'dear', 'none']);
  });
});

describe('candidateIndex', () => {
  it('answers what candidatesFor answers, for every number and class', () => {
    const table: RouteEntry[] = [
      route('+', 'global', { cost: 90n }),
      route('+', 'global-std', { routeClass: 'standard' }),
      route('+44', 'uk-a', { cost: 40n }),
      route('+44', 'uk-b', { priority: 2 }),
      route('+44', 'uk-a', { priority: 0 }),
      route('+4474', 'uk-mobile', { weight: 60 }),
      route('+4474', 'uk-mobile-2', { weight: 40 }),
      route('+44', 'uk-premium', { routeClass: 'premium' }),
      route('+33', 'fr-std', { routeClass: 'standard' }),
    ];
    const index = candidateIndex(table);
    const numbers = ['+447400123456', '+442071234567', '+33612345678', '+4915112345678', '+4474', '+1'];
    for (const number of numbers) {
      for (const routeClass of ['auto', 'standard', 'premium'] as const) {
        expect({ number, routeClass, entries: index(number, routeClass) }).toEqual({ number, routeClass, entries: candidatesFor(table, number, routeClass) });
      }
    }
    expect(candidateIndex([])('+447400123456', 'auto')).toEqual([]);
  });

  it('hands out copies, so a caller cannot change the index', () => {
    const index = candidateIndex([route('+44', 'a')]);
    index('+447400123456', 'auto').pop();
    expect(carriersOf(index('+447400123456', 'auto'))).toEqual(['a']);
  });
});
