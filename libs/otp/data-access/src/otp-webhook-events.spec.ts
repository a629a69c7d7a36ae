import { buildOtpEvent } from './otp-webhook-events';

describe('buildOtpEvent', () => {
  it('describes the verification, never its code', () => {
    const otp = {
      id: 'v-1',
      companyId: 'c-1',
      messageId: 'm-1',
      appid: 'app_1',
      webhookUrl: 'https://example.com/hook',
      recipient: '+33612345678',
      channel: 'sms',
      status: 'verified',
      expiresAt: new Date('2026-11-22T10:10:00Z'),
      verifiedAt: new Date('2026-11-22T10:01:00Z'),
    };
    expect(buildOtpEvent({ type: 'otp.verified', occurredAt: '2026-11-22T10:01:00.000Z' }, otp)).toEqual({
      type: 'otp.verified',
      timestamp: '2026-11-22T10:01:00.000Z',
      data: {
        verification_id: 'v-1',
        appid: 'app_1',
        recipient: '+33612345678',
        channel: 'sms',
        status: 'verified',
        expires_at: '2026-11-22T10:10:00.000Z',
        verified_at: '2026-11-22T10:01:00.000Z',
      },
    });
  });

  it('tells why an OTP failed, as it was when it failed, even once it was resent', () => {
    const resent = {
      id: 'v-2',
      companyId: 'c-1',
      messageId: 'm-3',
      appid: 'app_1',
      webhookUrl: 'https://example.com/hook',
      recipient: '+33612345678',
      channel: 'sms',
      status: 'pending',
      expiresAt: new Date('2026-11-22T10:20:00Z'),
      verifiedAt: null,
    };
    const event = {
      type: 'otp.failed' as const,
      occurredAt: '2026-11-22T10:00:05.000Z',
      messageId: 'm-2',
      failure: { reason: 'undelivered', errorCode: '001' },
    };
    expect(buildOtpEvent(event, resent).data).toEqual({
      verification_id: 'v-2',
      appid: 'app_1',
      recipient: '+33612345678',
      channel: 'sms',
      status: 'failed',
      expires_at: '2026-11-22T10:20:00.000Z',
      verified_at: null,
      failure_reason: 'undelivered',
      error_code: '001',
    });
    expect(buildOtpEvent({ type: 'otp.delivered', occurredAt: event.occurredAt }, resent).data).not.toHaveProperty('failure_reason');
  });
});
