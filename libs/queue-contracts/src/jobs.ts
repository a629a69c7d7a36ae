import { QueueName } from './queue-names';

/**
 * A canary every consumer answers: it proves that a queue has a live worker, end to end through
 * Redis (`admin queue:probe`, deployment smoke tests). The worker returns who handled it.
 */
export interface QueueProbeJob {
  name: 'queue.probe';
  data: { probeId: string; sentAt: string };
}

export interface QueueProbeResult {
  app: string;
  pid: number;
  queue: QueueName;
  probeId: string;
}

/**
 * Submit every part of these messages to a carrier; the message rows say what and to whom. The
 * gateway puts every message one group commit accepted into as few jobs as it can, so queue
 * overhead is paid per batch, not per message.
 */
export interface SmsSubmitJob {
  name: 'sms.submit';
  data: { messageIds: string[] };
}

/** Send one batch of a campaign: its messages are made from the batch row, then submitted in chunks. */
export interface CampaignBatchJob {
  name: 'campaign.batch';
  data: { batchId: string };
}

/** States a message can move to, as the dispatcher records them. */
export type MessageEventStatus = 'sent' | 'delivered' | 'undelivered' | 'expired' | 'rejected' | 'failed';

/** A message changed state: webhooks are derived from it. One job per (message, status). */
export interface MessageStatusJob {
  name: 'message.status';
  data: { messageId: string; status: MessageEventStatus; occurredAt: string };
}

/** One signed POST to a customer's webhook address, with its retries; the delivery row says what. */
export interface WebhookDeliverJob {
  name: 'webhook.deliver';
  data: { deliveryId: string };
}

/**
 * An OTP's message settled (delivered, or a failure); the otp app records it and tells the webhook.
 * Made by releases before otp.messages-settled; still handled for jobs queued by them.
 */
export interface OtpMessageSettledJob {
  name: 'otp.message-settled';
  data: { messageId: string; status: MessageEventStatus; occurredAt: string };
}

/**
 * OTP messages that one transaction of the dispatcher settled in the same final state, together:
 * one job per transaction and state instead of one per OTP, so the otp app pays the queue's
 * overhead once for many. `delivered` is logged as such; `undelivered`, `rejected`, `expired` and
 * `failed` fail the OTP (if the message is still its latest). Each message is recorded once
 * however often it is reported.
 */
export interface OtpMessagesSettledJob {
  name: 'otp.messages-settled';
  data: { messageIds: string[]; status: MessageEventStatus; occurredAt: string };
}

/** Send an OTP's code through the WhatsApp Cloud API (its message row holds the sealed code). */
export interface OtpWhatsAppJob {
  name: 'otp.whatsapp';
  data: { messageId: string };
}

export type OtpEventType = 'otp.delivered' | 'otp.verified' | 'otp.expired' | 'otp.failed';

/** Why an OTP failed, as `otp.failed` tells it (the reasons of @mp/otp-domain OTP_FAILURE_REASONS). */
export interface OtpFailure {
  reason: string;
  /** The carrier's error code, when it gave one. */
  errorCode: string | null;
}

/**
 * Something happened to an OTP that its application's webhook is told of. One job per (OTP,
 * event, message). `messageId` (the OTP's message the event is about; absent from jobs queued
 * before it existed) keeps the events of a resent OTP's messages apart; `failure` comes with
 * `otp.failed`, as it was when the OTP failed.
 */
export interface OtpEventJob {
  name: 'otp.event';
  data: { otpId: string; type: OtpEventType; occurredAt: string; messageId?: string; failure?: OtpFailure };
}

/** A campaign finished (every batch sent or cancelled, every message final): its webhook is told. */
export interface CampaignEventJob {
  name: 'campaign.event';
  data: { campaignId: string; type: 'campaign.completed'; occurredAt: string };
}

/** A message a handset sent to a company's number was stored: its inbound webhook is told (message.received). */
export interface InboundReceivedJob {
  name: 'inbound.received';
  data: { inboundMessageId: string; occurredAt: string };
}

/**
 * An inbound keyword changed a company's suppression list: its inbound webhook is told
 * (contact.opted_out, contact.opted_in). One per inbound message and type.
 */
export interface ContactEventJob {
  name: 'contact.event';
  data: { inboundMessageId: string; type: 'contact.opted_out' | 'contact.opted_in'; occurredAt: string };
}

/** Refund the parts of a settled message that never reached a carrier; idempotent per message. */
export interface RefundMessageJob {
  name: 'billing.refund';
  data: { messageId: string };
}

/**
 * The jobs each queue carries, as discriminated unions of `{ name, data }`. Later capabilities
 * add their job types here, and the start-up check makes every consumer handle them.
 */
export interface QueueJobs {
  [QueueName.SmsDispatch]: QueueProbeJob | SmsSubmitJob;
  [QueueName.CampaignDispatch]: QueueProbeJob | CampaignBatchJob;
  [QueueName.OtpDispatch]: QueueProbeJob | SmsSubmitJob;
  [QueueName.OtpDeliver]: QueueProbeJob | OtpMessageSettledJob | OtpMessagesSettledJob | OtpWhatsAppJob;
  [QueueName.DeliveryEvents]: QueueProbeJob | MessageStatusJob | OtpEventJob | CampaignEventJob | InboundReceivedJob | ContactEventJob;
  [QueueName.WebhookDeliver]: QueueProbeJob | WebhookDeliverJob;
  [QueueName.BillingSettle]: QueueProbeJob | RefundMessageJob;
}

export type JobOf<Q extends QueueName> = QueueJobs[Q];
export type JobNameOf<Q extends QueueName> = JobOf<Q>['name'];
/**
 * What any job's data may carry beside its own fields: the W3C `traceparent` of the work that
 * made it (a request, a job, a receipt), so that running it continues that trace. Only while
 * tracing is on; jobs made without it, or by older releases, run just the same
 * (docs/decisions/0043-traces-and-log-ids.md).
 */
export interface JobTrace {
  traceparent?: string;
}

export type JobDataOf<Q extends QueueName, N extends JobNameOf<Q>> = Extract<JobOf<Q>, { name: N }>['data'] & JobTrace;

/** `names` when it lists every job name of queue Q; a type error naming the missing ones otherwise. */
function everyJobOf<Q extends QueueName>() {
  return <const L extends readonly JobNameOf<Q>[]>(
    names: [Exclude<JobNameOf<Q>, L[number]>] extends [never] ? L : { missing: Exclude<JobNameOf<Q>, L[number]> },
  ): L => names as L;
}

/**
 * The same unions as runtime lists, for the start-up check that each has exactly one handler. A
 * job added to QueueJobs but not here does not compile.
 */
export const QUEUE_JOB_NAMES: { readonly [Q in QueueName]: readonly JobNameOf<Q>[] } = Object.freeze({
  [QueueName.SmsDispatch]: everyJobOf<typeof QueueName.SmsDispatch>()(['queue.probe', 'sms.submit']),
  [QueueName.CampaignDispatch]: everyJobOf<typeof QueueName.CampaignDispatch>()(['queue.probe', 'campaign.batch']),
  [QueueName.OtpDispatch]: everyJobOf<typeof QueueName.OtpDispatch>()(['queue.probe', 'sms.submit']),
  [QueueName.OtpDeliver]: everyJobOf<typeof QueueName.OtpDeliver>()(['queue.probe', 'otp.message-settled', 'otp.messages-settled', 'otp.whatsapp']),
  [QueueName.DeliveryEvents]: everyJobOf<typeof QueueName.DeliveryEvents>()([
    'queue.probe',
    'message.status',
    'otp.event',
    'campaign.event',
    'inbound.received',
    'contact.event',
  ]),
  [QueueName.WebhookDeliver]: everyJobOf<typeof QueueName.WebhookDeliver>()(['queue.probe', 'webhook.deliver']),
  [QueueName.BillingSettle]: everyJobOf<typeof QueueName.BillingSettle>()(['queue.probe', 'billing.refund']),
});
