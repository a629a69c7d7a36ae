import type { OutboxJob } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import type { DataSource } from 'typeorm';

/** Message states a campaign may still see change. */
export const CAMPAIGN_NOT_FINAL = ['scheduled', 'queued', 'sent'];

/**
 * Records as completed the campaigns (of a company, or one of them, or every one) whose batches
 * are all dispatched or cancelled and whose messages are all final, and commits in the same
 * statement the `campaign.completed` event of those with a webhook address. The conditions are
 * checked here, not taken from an earlier read, so a stale read never completes one, and each
 * campaign completes (and is told) once. Returns the outbox rows to enqueue.
 */
export async function completeFinishedCampaigns(
  db: DataSource,
  scope: { companyId?: string; campaignId?: string } = {},
): Promise<{ completed: number; outbox: { ids: string[]; jobs: OutboxJob[] } }> {
  const rows: { campaign_id: string; outbox_id: string | null; occurred_at: Date }[] = await db.query(
    `WITH done AS (
       UPDATE campaigns c SET status = 'completed', completed_at = now()
       WHERE ($1::uuid IS NULL OR c.company_id = $1) AND ($2::uuid IS NULL OR c.id = $2) AND c.status IN ('queued', 'processing')
         AND NOT EXISTS (SELECT 1 FROM campaign_batches b WHERE b.campaign_id = c.id AND b.status NOT IN ('dispatched', 'cancelled'))
         AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.campaign_id = c.id AND m.status = ANY($3::text[]))
       RETURNING c.id, c.webhook_url, c.completed_at),
     told AS (
       INSERT INTO outbox (queue, job_name, job_id, data, not_before)
       SELECT $4, 'campaign.event', 'campaign-completed-' || id,
         jsonb_build_object('campaignId', id, 'type', 'campaign.completed', 'occurredAt', completed_at), completed_at
       FROM done WHERE webhook_url IS NOT NULL
       ON CONFLICT (job_id) DO NOTHING
       RETURNING id, (data->>'campaignId')::uuid AS campaign_id)
     SELECT d.id AS campaign_id, t.id AS outbox_id, d.completed_at AS occurred_at FROM done d LEFT JOIN told t ON t.campaign_id = d.id`,
    [scope.companyId ?? null, scope.campaignId ?? null, CAMPAIGN_NOT_FINAL, QueueName.DeliveryEvents],
  );
  const told = rows.filter((row) => row.outbox_id !== null);
  return {
    completed: rows.length,
    outbox: {
      ids: told.map((row) => String(row.outbox_id)),
      jobs: told.map((row) => ({
        queue: QueueName.DeliveryEvents,
        jobName: 'campaign.event',
        jobId: `campaign-completed-${row.campaign_id}`,
        data: { campaignId: row.campaign_id, type: 'campaign.completed', occurredAt: new Date(row.occurred_at).toISOString() },
        notBefore: new Date(row.occurred_at),
        priority: null,
      })),
    },
  };
}
