import type { OutboxJob } from '@mp/persistence';
import { QueueName, type MessageEventStatus } from '@mp/queue-contracts';

export interface MessageTransition {
  messageId: string;
  status: MessageEventStatus;
  /** The message's webhook address: without one, nobody is told of the change. */
  webhookUrl: string | null;
  /** Set when the message carries an OTP's code: its delivery is the OTP's event too. */
  otpId?: string;
}

/**
 * The jobs a state change commits with it: the event a webhook is made from, when the message
 * has a webhook (events exist for nothing else), and, when a message settles other than
 * delivered, the refund of whatever parts never reached a carrier.
 */
export function jobsForTransition(transition: MessageTransition, at: Date = new Date()): OutboxJob[] {
  const jobs: OutboxJob[] = [];
  if (transition.webhookUrl !== null) {
    jobs.push({
      queue: QueueName.DeliveryEvents,
      jobName: 'message.status',
      jobId: `evt-${transition.messageId}-${transition.status}`,
      data: { messageId: transition.messageId, status: transition.status, occurredAt: at.toISOString() },
      notBefore: at,
      priority: null,
    });
  }
  if (transition.otpId && transition.status === 'delivered') {
    jobs.push({
      queue: QueueName.OtpDeliver,
      jobName: 'otp.message-settled',
      jobId: `otp-msg-${transition.messageId}-${transition.status}`,
      data: { messageId: transition.messageId, status: transition.status, occurredAt: at.toISOString() },
      notBefore: at,
      priority: null,
    });
  }
  if (transition.status !== 'sent' && transition.status !== 'delivered') {
    jobs.push({
      queue: QueueName.BillingSettle,
      jobName: 'billing.refund',
      jobId: `refund-${transition.messageId}`,
      data: { messageId: transition.messageId },
      notBefore: at,
      priority: null,
    });
  }
  return jobs;
}
