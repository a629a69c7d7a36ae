import { QueueName, type MessageEventStatus } from '@mp/queue-contracts';
import type { OutboxJob } from '@mp/queue-runtime';

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
 * and, for the OTP messages among them that settled (delivered, or failed to be), one job per
 * final state, so the otp app takes one job for a flush of receipts, not one per OTP. A message
 * settles once, so the first one's id and the state name the job uniquely.
 */
export function jobsForTransitions(transitions: readonly MessageTransition[], at: Date = new Date()): OutboxJob[] {
  const jobs = transitions.flatMap((transition) => jobsForTransition(transition, at));
  const settled = new Map<MessageEventStatus, string[]>();
  for (const transition of transitions) {
    if (!transition.otpId || transition.status === 'sent') continue;
    const ids = settled.get(transition.status) ?? [];
    ids.push(transition.messageId);
    settled.set(transition.status, ids);
  }
  for (const [status, messageIds] of settled) {
    jobs.push({
      queue: QueueName.OtpDeliver,
      jobName: 'otp.messages-settled',
      jobId: `otp-msgs-${messageIds[0]}-${status}`,
      data: { messageIds, status, occurredAt: at.toISOString() },
      notBefore: at,
      priority: null,
    });
  }
  return jobs;
}

/**
 * The jobs one state change commits with it: the event a webhook is made from, when the message
 * has a webhook (events exist for nothing else), and, when a message settles other than
 * delivered, the refund of whatever parts never reached a carrier. (How an OTP's message settled
 * is told to the otp app by jobsForTransitions, for all of a transaction's at once.)
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
