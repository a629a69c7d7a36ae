/**
 * Every queue of the platform, named once. Producers and consumers import these; nobody spells
 * a queue name as a string literal.
 */
export const QueueName = Object.freeze({
  /** SMS parts of single sends to submit to a carrier. */
  SmsDispatch: 'sms.dispatch',
  /**
   * Campaign batches to turn into messages and submit: their own queue, worked a few at a time,
   * so a campaign's thousands of parts never take the workers or database connections that
   * single sends and OTPs need.
   */
  CampaignDispatch: 'campaign.dispatch',
  /** OTP texts to submit to a carrier: its own queue, so OTPs never wait behind a campaign. */
  OtpDispatch: 'otp.dispatch',
  /** OTP work of the otp app: codes to hand to WhatsApp, and OTPs whose messages settled. */
  OtpDeliver: 'otp.deliver',
  /** Message, OTP and campaign state changes, made into webhook deliveries by the webhook-notifier. */
  DeliveryEvents: 'delivery.events',
  /** Signed webhook deliveries to customers' addresses, with retries. */
  WebhookDeliver: 'webhook.deliver',
  /** Settlement work: refunds of parts that never reached a carrier, usage aggregates. */
  BillingSettle: 'billing.settle',
} as const);

export type QueueName = (typeof QueueName)[keyof typeof QueueName];

export const ALL_QUEUES: readonly QueueName[] = Object.freeze(Object.values(QueueName));
