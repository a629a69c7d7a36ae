import { QueueName } from './queue-names';

/** Retry and retention policy of a queue, in BullMQ's terms but free of BullMQ. */
export interface QueuePolicy {
  attempts: number;
  /** First retry delay; each next one doubles (exponential backoff, with BullMQ's jitter). */
  backoffMs: number;
  /** Completed jobs kept for inspection: at most this many, for at most this long. */
  keepCompleted: { count: number; ageSeconds: number };
  /** Failed jobs kept for an operator to look at and retry. */
  keepFailed: { count: number; ageSeconds: number };
  /**
   * Jobs one worker process runs at once, unless its app sets the queue's own: the sms-dispatcher's
   * queues (sms.dispatch, otp.dispatch, campaign.dispatch) take theirs from its traffic policy
   * (libs/carrier TrafficPolicy, jobsAtOnce).
   */
  concurrency: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

const DEFAULT_POLICY: QueuePolicy = {
  attempts: 8,
  backoffMs: 1_000,
  keepCompleted: { count: 1_000, ageSeconds: HOUR },
  keepFailed: { count: 10_000, ageSeconds: 7 * DAY },
  concurrency: 16,
};

export const QUEUE_POLICIES: { readonly [Q in QueueName]: QueuePolicy } = Object.freeze({
  [QueueName.SmsDispatch]: DEFAULT_POLICY,
  [QueueName.OtpDispatch]: DEFAULT_POLICY,
  [QueueName.CampaignDispatch]: DEFAULT_POLICY,
  [QueueName.OtpDeliver]: DEFAULT_POLICY,
  [QueueName.DeliveryEvents]: DEFAULT_POLICY,
  // A receiver's failures are not retried here: webhook-notifier records each attempt and enqueues
  // the next one itself, on libs/webhooks/util's schedule (about 40 hours, then a dead letter). These
  // attempts only cover our own infrastructure failing (database or Redis down) during a job.
  [QueueName.WebhookDeliver]: { ...DEFAULT_POLICY, attempts: 18, backoffMs: 2_000 },
  [QueueName.BillingSettle]: { ...DEFAULT_POLICY, concurrency: 4 },
});
