import { displaySource, toE164 } from './addresses';

describe('addresses', () => {
  it('shows a destination as E.164 whether it came with +, 00, a space (an unescaped + in a URL) or nothing', () => {
    for (const given of ['447700900123', '+447700900123', '00447700900123', ' 447700900123']) expect(toE164(given)).toBe('+447700900123');
  });

  it('refuses what is not 1 to 15 digits', () => {
    for (const given of ['', '+', 'abc', '+44 7700 900123', '1234567890123456']) expect(toE164(given)).toBeNull();
  });

  it('shows an international sender with +, an alphanumeric one as sent', () => {
    expect(displaySource('15550001111', 1)).toBe('+15550001111');
    expect(displaySource('+15550001111', 1)).toBe('+15550001111');
    expect(displaySource('Acme', 5)).toBe('Acme');
    expect(displaySource('12345', 0)).toBe('12345');
  });
});
