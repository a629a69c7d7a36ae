import { checkSender, DEFAULT_SMS_SENDER } from './sender-id';

const REFUSED = {
  ok: false,
  error: 'from must be 1-11 letters, digits or spaces with at least one letter, or a phone number of up to 15 digits',
};

describe('checkSender', () => {
  it.each([
    ['SMS', 'SMS'],
    ['A', 'A'],
    ['MyCompany1', 'MyCompany1'],
    ['Acme Shop 1', 'Acme Shop 1'],
    ['  Acme  ', 'Acme'],
    ['2FA', '2FA'],
  ])('accepts the alphanumeric %p as %p', (input, sender) => {
    expect(checkSender(input)).toEqual({ ok: true, sender, kind: 'alphanumeric' });
  });

  it.each(['+447911123456', '447911123456', '123456789012345', '+123456789012345', '12345', ' +4479 '])('accepts the number %p', (input) => {
    expect(checkSender(input)).toEqual({ ok: true, sender: input.trim(), kind: 'numeric' });
  });

  it.each([
    ['empty', ''],
    ['only spaces', '   '],
    ['12 characters', 'ABCDEFGHIJKL'],
    ['punctuation', 'Acme-Shop'],
    ['a non-ASCII letter', 'Café'],
    ['16 digits', '1234567890123456'],
    ['a plus alone', '+'],
    ['a spaced number', '+44 7911 123'],
    ['a plus inside', '44+7911'],
  ])('refuses %s', (_name, input) => {
    expect(checkSender(input)).toEqual(REFUSED);
  });

  it('accepts its own default', () => {
    expect(checkSender(DEFAULT_SMS_SENDER)).toMatchObject({ ok: true, sender: 'SMS' });
  });
});
