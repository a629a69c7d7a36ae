import { DEFAULT_OTP_TEMPLATE, otpTemplateVariables, renderOtpTemplate, templateMentionsCode, type OtpTemplateInput } from './otp-template';

describe('otp-template', () => {
  const input: OtpTemplateInput = {
    code: '048213',
    appName: 'Acme',
    expiresAt: new Date('2026-11-22T13:05:00Z'),
    expiryMinutes: 10,
    timeZone: 'Europe/Paris',
    recipient: '+33612345678',
    channel: 'sms',
    lang: 'fr',
  };

  describe('renderOtpTemplate', () => {
    it('replaces variables, with or without spaces inside the braces', () => {
      expect(renderOtpTemplate('{{otp}} / {{ otp }} / {{  app_name\t}}', { otp: '1234', app_name: 'Acme' })).toBe('1234 / 1234 / Acme');
    });

    it('leaves out an unknown variable', () => {
      expect(renderOtpTemplate('Code {{otp}}{{ nope }}.', { otp: '1234' })).toBe('Code 1234.');
    });

    it('does not read variables from the object prototype', () => {
      expect(renderOtpTemplate('[{{constructor}}{{toString}}{{__proto__}}]', { otp: '1234' })).toBe('[]');
    });

    it('is case-sensitive', () => {
      expect(renderOtpTemplate('{{OTP}}', { otp: '1234' })).toBe('');
    });

    it('inserts values literally', () => {
      const variables = { otp: '1234', app_name: '{{otp}} $& $1 $$', lang: '{{ lang }}' };
      expect(renderOtpTemplate('{{app_name}} {{lang}}', variables)).toBe('{{otp}} $& $1 $$ {{ lang }}');
    });

    it('keeps text that is not a variable', () => {
      expect(renderOtpTemplate('{otp} {{}} {{ }} {{two words}} {{otp', { otp: '1234' })).toBe('{otp} {{}} {{ }} {{two words}} {{otp');
    });

    it('keeps braces around a variable', () => {
      expect(renderOtpTemplate('{{{otp}}}', { otp: '1234' })).toBe('{1234}');
    });
  });

  describe('otpTemplateVariables', () => {
    it('gives every built-in variable', () => {
      expect(otpTemplateVariables(input)).toEqual({
        otp: '048213',
        code: '048213',
        app_name: 'Acme',
        appname: 'Acme',
        expires_at: '14:05',
        expires_time: '14:05',
        expires_full: '2026-11-22 14:05 Europe/Paris',
        expiry_minutes: '10',
        recipient: '+33612345678',
        phone: '+33612345678',
        channel: 'sms',
        lang: 'fr',
      });
    });

    it.each([
      ['UTC', '2026-11-22T13:05:00Z', '2026-11-22 13:05 UTC'],
      ['Europe/Paris', '2026-07-01T12:00:00Z', '2026-07-01 14:00 Europe/Paris'],
      ['America/New_York', '2026-01-01T03:30:00Z', '2025-12-31 22:30 America/New_York'],
      ['Asia/Kolkata', '2026-03-10T18:45:00Z', '2026-03-11 00:15 Asia/Kolkata'],
      ['Europe/London', '2026-06-30T23:00:00Z', '2026-07-01 00:00 Europe/London'],
    ])('writes the expiry in %s', (timeZone, instant, full) => {
      const variables = otpTemplateVariables({ ...input, timeZone, expiresAt: new Date(instant) });
      expect(variables.expires_full).toBe(full);
      expect(variables.expires_at).toBe(full.split(' ')[1]);
    });

    it('throws RangeError for an unknown time zone', () => {
      expect(() => otpTemplateVariables({ ...input, timeZone: 'Mars/Olympus_Mons' })).toThrow(RangeError);
    });

    it('adds the custom variables as text', () => {
      const variables = otpTemplateVariables({ ...input, customVars: { order: 'A-17', amount: 42.5, vip: true } });
      expect(variables).toMatchObject({ order: 'A-17', amount: '42.5', vip: 'true' });
    });

    it('lets no custom variable replace a built-in one', () => {
      const variables = otpTemplateVariables({
        ...input,
        customVars: { otp: '0000', code: '0000', recipient: '+15550000000', app_name: 'Evil' },
      });
      expect(variables).toMatchObject({ otp: '048213', code: '048213', recipient: '+33612345678', app_name: 'Acme' });
    });

    it('keeps a custom variable named __proto__ as a plain variable', () => {
      const customVars = JSON.parse('{"__proto__": "x"}') as Record<string, string>;
      const variables = otpTemplateVariables({ ...input, customVars });
      expect(renderOtpTemplate('{{__proto__}}{{otp}}', variables)).toBe('x048213');
    });

    it('renders the default template', () => {
      expect(renderOtpTemplate(DEFAULT_OTP_TEMPLATE, otpTemplateVariables(input))).toBe('Your Acme verification code is 048213. It expires in 10 minutes.');
    });

    it('renders a custom template with custom variables', () => {
      const variables = otpTemplateVariables({ ...input, channel: 'whatsapp', customVars: { order: 'A-17' } });
      const template = '{{ appname }}: {{code}} for order {{order}}, valid until {{expires_full}} ({{channel}})';
      expect(renderOtpTemplate(template, variables)).toBe('Acme: 048213 for order A-17, valid until 2026-11-22 14:05 Europe/Paris (whatsapp)');
    });
  });

  describe('templateMentionsCode', () => {
    it.each([
      [DEFAULT_OTP_TEMPLATE, true],
      ['{{ code }} is your code', true],
      ['{{otp}}', true],
      ['Welcome to {{app_name}}', false],
      ['{otp} {{ otp_code }} {{OTP}}', false],
      ['', false],
    ])('%p → %p', (text, mentions) => {
      expect(templateMentionsCode(text)).toBe(mentions);
    });
  });
});
