import { OTP_FAILURE_REASONS, otpFailureOf, resendableAfterFailure } from './otp-failure';

describe('otp-failure', () => {
  it.each([
    ['undelivered', 'undelivered'],
    ['rejected', 'rejected'],
    ['expired', 'expired'],
    ['failed', 'not_sent'],
  ])('fails the OTP of a message that ends %p, as %p', (status, reason) => {
    expect(otpFailureOf(status)).toBe(reason);
  });

  it.each(['sent', 'delivered', 'queued', 'scheduled', 'cancelled', 'toString', '__proto__'])('does not fail it for %p', (status) => {
    expect(otpFailureOf(status)).toBeNull();
  });

  it('lets an OTP whose code never arrived be resent, never one that failed on wrong codes', () => {
    expect(OTP_FAILURE_REASONS.filter((reason) => resendableAfterFailure(reason))).toEqual(['undelivered', 'rejected', 'expired', 'not_sent']);
    expect(resendableAfterFailure('too_many_attempts')).toBe(false);
    expect(resendableAfterFailure(null)).toBe(false);
  });
});
