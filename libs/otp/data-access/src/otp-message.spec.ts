import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { OtpTemplateError } from './otp-errors';
import { composeOtpMessage, type OtpTextSpec } from './otp-message';

const key = Buffer.alloc(32, 7);

function spec(templateText: string, customVars: OtpTextSpec['customVars'] = {}): OtpTextSpec {
  return {
    companyId: '6f1c2d3e-4a5b-4c6d-8e7f-8091a2b3c4d5',
    verificationId: '0193e8a0-1c2d-7e4f-8a9b-0c1d2e3f4a5b',
    application: { name: 'Acme', settings: DEFAULT_APPLICATION_SETTINGS },
    recipient: '+447911123456',
    channel: 'sms',
    sender: 'OTP',
    templateText,
    lang: 'en',
    customVars,
    expiresAt: new Date('2026-11-26T10:00:00Z'),
    expiryMinutes: 10,
  };
}

describe('composeOtpMessage', () => {
  it('prices the rendered text by its parts', () => {
    const message = composeOtpMessage(spec('Your code is {{otp}}'), '123456', DEFAULT_PRICES, key);
    expect(message).toMatchObject({ parts: 1, encoding: 'GSM-7', bodySealed: true });
  });

  it('refuses a text over 1600 characters once rendered, each part within its own limit', () => {
    // A template and custom_vars each within their limits (1600 and 200 characters) render longer.
    const template = `{{otp}} ${'{{shop}}'.repeat(10)}`;
    const render = () => composeOtpMessage(spec(template, { shop: 'x'.repeat(200) }), '123456', DEFAULT_PRICES, key);
    expect(render).toThrow(OtpTemplateError);
    expect(render).toThrow('the OTP text is 2007 characters once rendered, at most 1600: shorten the template or custom_vars');
  });
});
