import { createHmac } from 'node:crypto';

export type StatusName = 'sent' | 'delivered' | 'failed';

export interface StatusError {
  code: number;
  title: string;
}

/** What a `failed` status carries: Meta's error for a message it could not deliver. */
export const UNDELIVERABLE: StatusError = { code: 131026, title: 'Message undeliverable' };

/** The simulated business: its WhatsApp Business Account id and the number it sends from. */
export const WABA_ID = '100000000000000';
export const DISPLAY_PHONE_NUMBER = '15550000000';

export interface StatusUpdate {
  /** The wamid the send was answered with. */
  messageId: string;
  status: StatusName;
  /** The phone number id of the send's URL. */
  phoneNumberId: string;
  /** The recipient's digits, as sent. */
  recipientId: string;
  at: Date;
  errors?: StatusError[];
}

/** A status notification, shaped as Meta posts it to a webhook subscribed to the `messages` field. */
export function statusWebhookBody(update: StatusUpdate): object {
  const status = {
    id: update.messageId,
    status: update.status,
    timestamp: String(Math.floor(update.at.getTime() / 1000)),
    recipient_id: update.recipientId,
    ...(update.errors ? { errors: update.errors } : {}),
  };
  return {
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: DISPLAY_PHONE_NUMBER, phone_number_id: update.phoneNumberId },
              statuses: [status],
            },
          },
        ],
      },
    ],
  };
}

/** The X-Hub-Signature-256 header value: HMAC-SHA256 of the exact bytes posted, keyed with the app secret. */
export function hubSignature(rawBody: string | Buffer, appSecret: string): string {
  return `sha256=${createHmac('sha256', appSecret).update(rawBody).digest('hex')}`;
}
