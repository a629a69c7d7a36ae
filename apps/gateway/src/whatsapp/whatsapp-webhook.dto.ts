import { Integer } from '../openapi/schema-properties';

/** What POST /webhooks/whatsapp answers Meta. */
export class StatusesAppliedDto {
  @Integer({ minimum: 0, description: 'Statuses applied as carrier receipts' }) applied: number;
}
