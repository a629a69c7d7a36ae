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
 * The jobs the state changes of one transaction commit with it: each one's (jobsForTransition),
 * and one job for all the OTP messages among them that were delivered, so the otp app takes
 * one job for a flush of receipts, not one per OTP. A message is delivered once, so the first
 * one's id names the job uniquely.
 */
export function jobsForTransitions(transitions: readonly MessageTransition[], at: Date = new Date()): OutboxJob[] {
  const jobs = transitions.flatMap((transition) => jobsForTransition(transition, at));
  const delivered = transitions.filter((transition) => transition.otpId && transition.status === 'delivered').map((transition) => transition.messageId);
  if (delivered.length > 0) {
    jobs.push({
      queue: QueueName.OtpDeliver,
      jobName: 'otp.messages-settled',
      jobId: `otp-msgs-${delivered[0]}-delivered`,
      data: { messageIds: delivered, status: 'delivered', occurredAt: at.toISOString() },
      notBefore: at,
      priority: null,
    });
  }
  return jobs;
}

/**
 * The jobs one state change commits with it: the event a webhook is made from, when the message
 * has a webhook (events exist for nothing else), and, when a message settles other than
 * delivered, the refund of whatever parts never reached a carrier. (An OTP's delivery is told to
 * the otp app by jobsForTransitions, for all of a transaction's at once.)
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
