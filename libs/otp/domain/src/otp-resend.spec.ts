import { checkResend, OTP_RESEND } from './otp-resend';

const sentAt = new Date('2026-11-22T10:00:00Z');
const after = (ms: number) => new Date(sentAt.getTime() + ms);

describe('otp-resend', () => {
  it('allows a resend every 30 s, 5 times', () => {
    expect(OTP_RESEND).toEqual({ minIntervalMs: 30_000, maxResends: 5 });
  });

  it('allows a resend 30 s after the previous send', () => {
    expect(checkResend({ lastSentAt: sentAt, resends: 0, now: after(30_000) })).toEqual({ ok: true });
    expect(checkResend({ lastSentAt: sentAt, resends: 4, now: after(3_600_000) })).toEqual({ ok: true });
  });

  it.each([
    [0, 30],
    [1, 30],
    [999, 30],
    [1_000, 29],
    [29_000, 1],
    [29_999, 1],
  ])('refuses a resend %p ms after the previous send, retry after %p s', (elapsed, seconds) => {
    expect(checkResend({ lastSentAt: sentAt, resends: 0, now: after(elapsed) })).toEqual({
      ok: false,
      reason: 'too-soon',
      retryAfterSeconds: seconds,
    });
  });

  it('waits no more than the interval for a send stamped in the future', () => {
    expect(checkResend({ lastSentAt: after(5_000), resends: 0, now: sentAt })).toEqual({
      ok: false,
      reason: 'too-soon',
      retryAfterSeconds: 30,
    });
  });

  it('refuses the 6th resend', () => {
    for (const resends of [5, 9]) {
      const check = checkResend({ lastSentAt: sentAt, resends, now: after(60_000) });
      expect(check).toEqual({ ok: false, reason: 'too-many' });
    }
  });

  it('says too many rather than too soon when both apply', () => {
    const check = checkResend({ lastSentAt: sentAt, resends: 5, now: after(1_000) });
    expect(check).toEqual({ ok: false, reason: 'too-many' });
  });
});
