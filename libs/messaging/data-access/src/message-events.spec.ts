import { QueueName } from '@mp/queue-contracts';
import { jobsForTransition, jobsForTransitions } from './message-events';

describe('jobsForTransition', () => {
  const at = new Date('2026-11-22T10:00:00Z');
  const hook = 'https://example.com/hook';

  it('makes the status event only for a message with a webhook', () => {
    expect(jobsForTransition({ messageId: 'm1', status: 'sent', webhookUrl: hook }, at)).toEqual([
      {
        queue: QueueName.DeliveryEvents,
        jobName: 'message.status',
        jobId: 'evt-m1-sent',
        data: { messageId: 'm1', status: 'sent', occurredAt: at.toISOString() },
        notBefore: at,
        priority: null,
      },
    ]);
    expect(jobsForTransition({ messageId: 'm1', status: 'sent', webhookUrl: null }, at)).toEqual([]);
    expect(jobsForTransition({ messageId: 'm1', status: 'delivered', webhookUrl: null }, at)).toEqual([]);
  });

  it('refunds a message that settles other than delivered, webhook or not', () => {
    for (const status of ['undelivered', 'expired', 'rejected', 'failed'] as const) {
      expect(jobsForTransition({ messageId: 'm2', status, webhookUrl: hook }, at).map((job) => job.jobId)).toEqual([`evt-m2-${status}`, 'refund-m2']);
      const refund = jobsForTransition({ messageId: 'm2', status, webhookUrl: null }, at);
      expect(refund).toEqual([
        { queue: QueueName.BillingSettle, jobName: 'billing.refund', jobId: 'refund-m2', data: { messageId: 'm2' }, notBefore: at, priority: null },
      ]);
    }
    expect(jobsForTransition({ messageId: 'm3', status: 'delivered', webhookUrl: hook }, at).map((job) => job.jobId)).toEqual(['evt-m3-delivered']);
  });

  it('tells the otp app in one job of every OTP message a transaction delivered, and refunds an OTP message that never left', () => {
    const jobs = jobsForTransitions(
      [
        { messageId: 'm9', status: 'delivered', webhookUrl: null, otpId: 'o9' },
        { messageId: 'm10', status: 'delivered', webhookUrl: hook, otpId: 'o10' },
        { messageId: 'm11', status: 'sent', webhookUrl: null, otpId: 'o11' },
        { messageId: 'm12', status: 'delivered', webhookUrl: null },
      ],
      at,
    );
    expect(jobs).toEqual([
      expect.objectContaining({ jobName: 'message.status', jobId: 'evt-m10-delivered' }),
      {
        queue: QueueName.OtpDeliver,
        jobName: 'otp.messages-settled',
        jobId: 'otp-msgs-m9-delivered',
        data: { messageIds: ['m9', 'm10'], status: 'delivered', occurredAt: at.toISOString() },
        notBefore: at,
        priority: null,
      },
    ]);
    expect(jobsForTransitions([{ messageId: 'm9', status: 'failed', webhookUrl: null, otpId: 'o9' }], at).map((job) => job.jobName)).toEqual([
      'billing.refund',
      'otp.messages-settled',
    ]);
    expect(jobsForTransitions([{ messageId: 'm9', status: 'sent', webhookUrl: null, otpId: 'o9' }], at)).toEqual([]);
    expect(jobsForTransitions([], at)).toEqual([]);
  });

  it('tells the otp app of the OTP messages that ended undelivered, rejected, expired or failed, one job per state', () => {
    const jobs = jobsForTransitions(
      [
        { messageId: 'm20', status: 'undelivered', webhookUrl: null, otpId: 'o20' },
        { messageId: 'm21', status: 'delivered', webhookUrl: null, otpId: 'o21' },
        { messageId: 'm22', status: 'rejected', webhookUrl: null, otpId: 'o22' },
        { messageId: 'm23', status: 'undelivered', webhookUrl: null, otpId: 'o23' },
        { messageId: 'm24', status: 'undelivered', webhookUrl: null },
        { messageId: 'm25', status: 'expired', webhookUrl: null, otpId: 'o25' },
      ],
      at,
    );
    expect(jobs.filter((job) => job.jobName === 'otp.messages-settled')).toEqual(
      [
        ['otp-msgs-m20-undelivered', ['m20', 'm23'], 'undelivered'],
        ['otp-msgs-m21-delivered', ['m21'], 'delivered'],
        ['otp-msgs-m22-rejected', ['m22'], 'rejected'],
        ['otp-msgs-m25-expired', ['m25'], 'expired'],
      ].map(([jobId, messageIds, status]) => ({
        queue: QueueName.OtpDeliver,
        jobName: 'otp.messages-settled',
        jobId,
        data: { messageIds, status, occurredAt: at.toISOString() },
        notBefore: at,
        priority: null,
      })),
    );
  });
});
