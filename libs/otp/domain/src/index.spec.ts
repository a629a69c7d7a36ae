import * as domain from './index';

describe('otp-domain public API', () => {
  it.each([
    'generateOtpCode',
    'isValidOtpCode',
    'hashOtpCode',
    'otpCodeMatches',
    'parseTextKey',
    'sealText',
    'openText',
    'isSealedText',
    'TextCipherError',
    'renderOtpTemplate',
    'otpTemplateVariables',
    'templateMentionsCode',
    'blockUntil',
    'blockLookbackStart',
    'retryAfterSeconds',
    'checkResend',
    'expiresAt',
    'numberPrefix',
  ])('exports the function %s', (name) => {
    expect(typeof (domain as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the constants', () => {
    expect(domain.OTP_LENGTH.default).toBe(6);
    expect(domain.OTP_BLOCK.failures).toBe(3);
    expect(domain.OTP_RESEND.maxResends).toBe(5);
    expect(domain.OTP_VALIDITY.defaultMinutes).toBe(10);
    expect(domain.OTP_STATES).toContain('pending');
    expect(domain.OTP_LOG_EVENTS).toContain('blocked');
    expect(domain.OTP_ATTEMPT_OUTCOMES).toContain('invalid_code');
    expect(domain.DEFAULT_OTP_TEMPLATE).toContain('{{otp}}');
  });
});
