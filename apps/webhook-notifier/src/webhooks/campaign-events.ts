import { moneyToJson, parseMoney } from '@mp/billing-domain';
import type { CampaignForWebhook } from '@mp/persistence';

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
