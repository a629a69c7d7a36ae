import { PlatformMetrics } from '@mp/metrics';
import type { OtpSent } from '@mp/otp';
import { parsePrometheusText, sampleSum } from '@mp/testing';
import { OtpMetrics } from './otp-metrics';

const sent = (channel: OtpSent['channel'], cost: bigint): OtpSent => ({
  verificationId: 'v',
  recipient: '+447700900123',
  channel,
  expiresAt: new Date(),
  cost,
  balance: 0n,
});

describe('OtpMetrics', () => {
  it('counts sends by channel with their charge, verify attempts by result, and a block when the last attempt is used up', async () => {
    const metrics = new PlatformMetrics('gateway', { defaultMetrics: false });
    const otp = new OtpMetrics(metrics);
    otp.sent(sent('sms', 350n));
    otp.sent(sent('whatsapp', 100n));
    otp.verified({ outcome: 'verified', verificationId: 'v', recipient: '+447700900123', verifiedAt: new Date() });
    otp.verified({ outcome: 'invalid_code', verificationId: 'v', attemptsRemaining: 2 });
    otp.verified({ outcome: 'invalid_code', verificationId: 'v', attemptsRemaining: 0 });
    otp.verified({ outcome: 'not_found' });
    const scrape = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(scrape, 'mp_otp_sent_total', { channel: 'sms' })).toBe(1);
    expect(sampleSum(scrape, 'mp_otp_sent_total', { channel: 'whatsapp' })).toBe(1);
    expect(sampleSum(scrape, 'mp_billing_debits_total', { kind: 'otp' })).toBe(2);
    expect(sampleSum(scrape, 'mp_billing_debited_units_total', { kind: 'otp' })).toBe(450);
    expect(sampleSum(scrape, 'mp_otp_verifications_total', { result: 'verified' })).toBe(1);
    expect(sampleSum(scrape, 'mp_otp_verifications_total', { result: 'wrong_code' })).toBe(2);
    expect(sampleSum(scrape, 'mp_otp_verifications_total', { result: 'not_found' })).toBe(1);
    expect(sampleSum(scrape, 'mp_otp_blocked_total')).toBe(1);
  });
});
