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

  it("tells the otp app in one job of every OTP message a transaction delivered, and refunds an OTP message that never left", () => {
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
    expect(jobsForTransitions([{ messageId: 'm9', status: 'failed', webhookUrl: null, otpId: 'o9' }], at).map((job) => job.jobName)).toEqual(['billing.refund']);
    expect(jobsForTransitions([{ messageId: 'm9', status: 'sent', webhookUrl: null, otpId: 'o9' }], at)).toEqual([]);
    expect(jobsForTransitions([], at)).toEqual([]);
  });
});
