import { moneyToJson, parseMoney } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';

export interface CampaignForWebhook {
  id: string;
  companyId: string;
  webhookUrl: string | null;
  reference: string | null;
  totalRecipients: number;
  accepted: number;
  failed: number;
  /** numeric(20,4) as PostgreSQL writes it. */
  totalCost: string;
  /**
   * numeric(20,4): the batches cancelled before they started, and every part of its messages that
   * never reached a carrier. The billing app books the refund of those parts from the same final
   * states, possibly a moment after the campaign completes, so this is what the campaign is
   * refunded in the end, not only what was booked when it was read.
   */
  refunded: string;
  /** Messages by status. */
  states: Record<string, number>;
  /** Recipients of cancelled batches. */
  cancelled: number;
}

/** The body of campaign.completed: the campaign's totals and how its recipients ended. */
export function buildCampaignCompleted(occurredAt: string, campaign: CampaignForWebhook) {
  const count = (...states: string[]) => states.reduce((sum, state) => sum + (campaign.states[state] ?? 0), 0);
  return {
    type: 'campaign.completed' as const,
    timestamp: new Date(occurredAt).toISOString(),
    data: {
      campaign_id: campaign.id,
      reference: campaign.reference,
      total_recipients: campaign.totalRecipients,
      successful: campaign.accepted,
      failed: campaign.failed,
      summary: {
        delivered: count('delivered'),
        failed: count('undelivered', 'expired', 'rejected', 'failed'),
        cancelled: campaign.cancelled,
      },
      total_cost: moneyToJson(parseMoney(campaign.totalCost)),
      refunded: moneyToJson(parseMoney(campaign.refunded)),
    },
  };
}

/**
 * A campaign's webhook event, made here for the webhook notifier to deliver: the company, the
 * address (null: the campaign has none), the event and its body.
 */
export interface CampaignWebhookEvent {
  companyId: string;
  campaignId: string;
  url: string | null;
  eventType: 'campaign.completed';
  payload: ReturnType<typeof buildCampaignCompleted>;
}

/** The webhook event of a completed campaign, made from the campaign as it is when the event is handled. */
export class CampaignWebhookEvents {
  constructor(private readonly db: DataSource) {}

  /** campaign.completed; null when the campaign does not exist. */
  async completed(event: { campaignId: string; occurredAt: string }): Promise<CampaignWebhookEvent | null> {
    const campaign = await this.findCampaign(event.campaignId);
    if (!campaign) return null;
    const payload = buildCampaignCompleted(event.occurredAt, campaign);
    return { companyId: campaign.companyId, campaignId: campaign.id, url: campaign.webhookUrl, eventType: payload.type, payload };
  }

  /** A campaign as its completion webhook describes it: totals and each recipient's final state. */
  async findCampaign(campaignId: string): Promise<CampaignForWebhook | null> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT c.id, c.company_id, c.webhook_url, c.reference, c.total_recipients, c.accepted, jsonb_array_length(c.failed_numbers) AS failed,
         c.total_cost, c.completed_at,
         c.refunded + (SELECT coalesce(sum(greatest(m.refunded,
             m.price_per_part * (SELECT count(*) FROM message_parts p WHERE p.message_id = m.id AND p.status = 'failed'))), 0)
           FROM messages m WHERE m.campaign_id = c.id AND m.status <> 'delivered') AS refunded,
         (SELECT jsonb_object_agg(status, n) FROM (SELECT status, count(*)::int AS n FROM messages WHERE campaign_id = c.id GROUP BY status) s) AS states,
         (SELECT coalesce(sum(cardinality(b.recipients)), 0)::int FROM campaign_batches b WHERE b.campaign_id = c.id AND b.status = 'cancelled') AS cancelled
       FROM campaigns c WHERE c.id = $1`,
      [campaignId],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      id: String(row['id']),
      companyId: String(row['company_id']),
      webhookUrl: nullable(row['webhook_url'], String),
      reference: nullable(row['reference'], String),
      totalRecipients: Number(row['total_recipients']),
      accepted: Number(row['accepted']),
      failed: Number(row['failed']),
      totalCost: String(row['total_cost']),
      refunded: String(row['refunded']),
      states: (row['states'] as Record<string, number> | null) ?? {},
      cancelled: Number(row['cancelled']),
    };
  }
}

function nullable<T>(value: unknown, convert: (value: unknown) => T): T | null {
  return value === null || value === undefined ? null : convert(value);
}
