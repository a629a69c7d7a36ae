import { buildOtpEvent } from './otp-events';

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
});
