import { isRouteClass, parseRouteEntry, RouteEntryError } from './route-entry';

describe('parseRouteEntry', () => {
  it('reads an operator entry exactly, with auto and priority 1 by default', () => {
    expect(parseRouteEntry({ prefix: '+44', carrierId: ' voda ', cost: '0.004' })).toEqual({
      prefix: '+44',
      routeClass: 'auto',
      carrierId: 'voda',
      priority: 1,
      cost: 40n,
    });
    expect(parseRouteEntry({ prefix: '+', routeClass: 'premium', carrierId: 'c', priority: '3', weight: '70' })).toEqual({
      prefix: '+',
      routeClass: 'premium',
      carrierId: 'c',
      priority: 3,
      weight: 70,
    });
  });

  it.each([
    [{ prefix: '44', carrierId: 'c' }, /prefix/],
    [{ prefix: '+44x', carrierId: 'c' }, /prefix/],
    [{ prefix: '+1234567890123456', carrierId: 'c' }, /prefix/],
    [{ prefix: '+44', routeClass: 'whatsapp', carrierId: 'c' }, /route must be one of auto, standard, premium/],
    [{ prefix: '+44', carrierId: '  ' }, /carrier/],
    [{ prefix: '+44', carrierId: 'c', priority: '1.5' }, /priority/],
    [{ prefix: '+44', carrierId: 'c', priority: -1 }, /priority/],
    [{ prefix: '+44', carrierId: 'c', cost: '0.00001' }, /cost must be a decimal/],
    [{ prefix: '+44', carrierId: 'c', cost: '-0.01' }, /cost must not be negative/],
    [{ prefix: '+44', carrierId: 'c', weight: '101' }, /weight must be a whole number from 0 to 100/],
    [{ prefix: '+44', carrierId: 'c', weight: '' }, /weight/],
  ])('refuses %p', (input, message) => {
    expect(() => parseRouteEntry(input)).toThrow(RouteEntryError);
    expect(() => parseRouteEntry(input)).toThrow(message);
  });

  it('knows the route classes', () => {
    expect(['auto', 'standard', 'premium', 'whatsapp', ''].filter(isRouteClass)).toEqual(['auto', 'standard', 'premium']);
  });
});
