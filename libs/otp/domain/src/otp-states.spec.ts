import { expiresAt, OTP_ATTEMPT_OUTCOMES, OTP_LOG_EVENTS, OTP_STATES, OTP_VALIDITY } from './otp-states';

describe('otp-states', () => {
  it('lists the states, log events and attempt outcomes', () => {
    expect(OTP_STATES).toEqual(['pending', 'verified', 'expired', 'failed', 'cancelled']);
    expect(OTP_LOG_EVENTS).toEqual(['sent', 'delivered', 'verified', 'failed_attempt', 'expired', 'resent', 'blocked', 'failed']);
    expect(OTP_ATTEMPT_OUTCOMES).toEqual(['success', 'invalid_code', 'expired', 'blocked', 'already_verified']);
  });

  it('makes codes valid for 1 to 60 minutes, 10 by default', () => {
    expect(OTP_VALIDITY).toEqual({ minMinutes: 1, maxMinutes: 60, defaultMinutes: 10 });
  });

  it.each([
    [1, '2026-11-22T10:01:00.000Z'],
    [10, '2026-11-22T10:10:00.000Z'],
    [60, '2026-11-22T11:00:00.000Z'],
  ])('expires %p minutes after the send', (minutes, expiry) => {
    expect(expiresAt(new Date('2026-11-22T10:00:00Z'), minutes).toISOString()).toBe(expiry);
  });

  it.each([0, 61, -5, 1.5, Number.NaN])('refuses a validity of %p minutes', (minutes) => {
    expect(() => expiresAt(new Date(), minutes)).toThrow(RangeError);
  });
});
