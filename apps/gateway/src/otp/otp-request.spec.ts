import { resolveOtpSend, resolveOtpVerify } from './otp-request';

describe('resolveOtpSend', () => {
  const base = { appid: 'app_1', recipient: '+33612345678' };

  it('applies the defaults of the interface', () => {
    expect(resolveOtpSend(base)).toEqual({
      ok: true,
      value: {
        appid: 'app_1',
        recipient: '+33612345678',
        channel: 'sms',
        sender: 'OTP',
        codeLength: 6,
        code: null,
        template: null,
        lang: 'en',
        customVars: {},
        expiryMinutes: null,
      },
    });
  });

  it('accepts every alias: phone/to, sender, code', () => {
    const resolved = resolveOtpSend({ appid: 'app_1', to: '+33612345678', sender: 'Acme', code: '1234' });
    expect(resolved).toMatchObject({ ok: true, value: { recipient: '+33612345678', sender: 'Acme', code: '1234', codeLength: 4 } });
    expect(resolveOtpSend({ appid: 'app_1', phone: '+33612345678' })).toMatchObject({ ok: true, value: { recipient: '+33612345678' } });
  });

  it.each([
    [{ recipient: '+33612345678' }, 'appid is required'],
    [{ appid: 'app_1' }, 'recipient is required'],
    [{ ...base, channel: 'fax' }, 'channel must be sms or whatsapp'],
    [{ ...base, otp_length: 3 }, 'otp_length must be an integer from 4 to 8'],
    [{ ...base, otp_length: '9' }, 'otp_length must be an integer from 4 to 8'],
    [{ ...base, otp_length: 6.5 }, 'otp_length must be an integer from 4 to 8'],
    [{ ...base, otp_code: '12a4' }, 'otp_code must be 4 to 8 digits'],
    [{ ...base, code: '123456789' }, 'otp_code must be 4 to 8 digits'],
    [{ ...base, template: { text: 'x' } }, 'template must be a template id or a template text'],
    [{ ...base, template: 0 }, 'template must be a template id (1 to 2147483647) or a template text'],
    [{ ...base, template: 2147483648 }, 'template must be a template id (1 to 2147483647) or a template text'],
    [{ ...base, template: '99999999999' }, 'template must be a template id (1 to 2147483647) or a template text'],
    [{ ...base, lang: 'English' }, 'lang must be a language code such as en or pt-BR'],
    [{ ...base, custom_vars: ['a'] }, 'custom_vars must be an object'],
    [{ ...base, custom_vars: { 'bad name': 'x' } }, 'custom_vars.bad name: names are letters, digits and _ (at most 40)'],
    [{ ...base, custom_vars: { nested: { a: 1 } } }, 'custom_vars.nested must be text, a number or a boolean'],
    [{ ...base, expiry_minutes: 61 }, 'expiry_minutes must be an integer from 1 to 60'],
  ])('refuses %j: %s', (dto, error) => {
    expect(resolveOtpSend(dto)).toEqual({ ok: false, error });
  });

  it('reads a template id (number or digits) or an inline text', () => {
    expect(resolveOtpSend({ ...base, template: 7 })).toMatchObject({ value: { template: { id: 7 } } });
    expect(resolveOtpSend({ ...base, template: '12' })).toMatchObject({ value: { template: { id: 12 } } });
    expect(resolveOtpSend({ ...base, template: 'Code {{otp}}' })).toMatchObject({ value: { template: { text: 'Code {{otp}}' } } });
  });

  it('takes the length of a caller code over otp_length', () => {
    expect(resolveOtpSend({ ...base, otp_length: 8, otp_code: '12345' })).toMatchObject({ value: { codeLength: 5, code: '12345' } });
  });
});

describe('resolveOtpVerify', () => {
  it('takes verification_id + code, or appid + recipient (or phone) + code', () => {
    expect(resolveOtpVerify({ verification_id: 'v1', otp_code: '1234' })).toEqual({ ok: true, value: { verificationId: 'v1', code: '1234' } });
    expect(resolveOtpVerify({ appid: 'a', phone: '+33612345678', code: '1234' })).toEqual({
      ok: true,
      value: { appid: 'a', recipient: '+33612345678', code: '1234' },
    });
  });

  it.each([
    [{ verification_id: 'v1' }, 'otp_code is required'],
    [{ code: '1234' }, 'verification_id is required (or appid and recipient)'],
    [{ code: '1234', recipient: '+33612345678' }, 'appid is required'],
    [{ code: '1234', appid: 'a' }, 'recipient is required'],
  ])('refuses %j: %s', (dto, error) => {
    expect(resolveOtpVerify(dto)).toEqual({ ok: false, error });
  });
});
