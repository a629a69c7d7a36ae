import { INVALID_PHONE_NUMBER, parsePhoneNumber } from './phone-number';

describe('parsePhoneNumber', () => {
  it.each([
    // libphonenumber files +44 7911 under Guernsey, which shares the UK's +44 plan.
    ['+447911123456', 'GG'],
    ['+447400123456', 'GB'],
    ['+33612345678', 'FR'],
    ['+14155552671', 'US'],
    ['+4915112345678', 'DE'],
    ['+390612345678', 'IT'],
    ['+80012345678', null],
  ])('accepts %p (%p)', (input, country) => {
    expect(parsePhoneNumber(input)).toEqual({ ok: true, e164: input, country });
  });

  it('trims outer whitespace', () => {
    expect(parsePhoneNumber(' \t+447911123456\n')).toMatchObject({ ok: true, e164: '+447911123456' });
  });

  it.each([
    ['too short', '+1234'],
    ['an unknown country code', '+999999999999'],
    ['no plus', '447911123456'],
    ['letters', 'abc'],
    ['spaces', '+44 7911 123456'],
    ['dashes', '+44-7911-123456'],
    ['dots', '+44.7911.123456'],
    ['parentheses', '+1(415)5552671'],
    ['an extension', '+447911123456x'],
    ['more than 15 digits', '+4479111234567890'],
    ['a number outside the numbering plan', '+447700900123'],
    ['a national trunk prefix after the country code', '+4407911123456'],
    ['two plus signs', '++447911123456'],
    ['empty', ''],
  ])('refuses %s', (_name, input) => {
    expect(parsePhoneNumber(input)).toEqual({ ok: false, error: INVALID_PHONE_NUMBER });
  });

  it('reads a number without + as international when allowed', () => {
    expect(parsePhoneNumber('447911123456', { allowMissingPlus: true })).toEqual({ ok: true, e164: '+447911123456', country: 'GG' });
    expect(parsePhoneNumber(' 33612345678 ', { allowMissingPlus: true })).toMatchObject({ ok: true, e164: '+33612345678' });
    expect(parsePhoneNumber('+33612345678', { allowMissingPlus: true })).toMatchObject({ ok: true, e164: '+33612345678' });
  });

  it.each(['07911123456', '1234', '44 7911 123456', '447911123456x'])('still refuses %p without + when allowed', (input) => {
    expect(parsePhoneNumber(input, { allowMissingPlus: true })).toEqual({ ok: false, error: INVALID_PHONE_NUMBER });
  });
});
