import * as domain from './index';

describe('messaging-domain public API', () => {
  it.each([
    'splitSms',
    'countSmsParts',
    'encodeGsm7',
    'encodeUcs2',
    'SmsTextError',
    'encodeSmsParts',
    'decodeConcatenationHeader',
    'decodeGsm7',
    'decodeUcs2',
    'parsePhoneNumber',
    'splitRecipientString',
    'parseRecipients',
    'checkSender',
    'findUcs2Character',
  ])('exports the function %s', (name) => {
    expect(typeof (domain as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the constants', () => {
    expect(domain.MAX_SMS_CHARACTERS).toBe(1600);
    expect(domain.INVALID_PHONE_NUMBER).toBe('Invalid phone number format');
    expect(domain.DEFAULT_SMS_SENDER).toBe('SMS');
  });
});
