import { sql } from '@mp/persistence';
import { QueueName } from '@mp/queue-contracts';
import { outboxRowsSelected, type OutboxJob } from '@mp/queue-runtime';
import type { DataSource } from 'typeorm';

/** Message states a campaign may still see change. */
export const CAMPAIGN_NOT_FINAL = ['scheduled', 'queued', 'sent'];

/** The longest a finished campaign waits for the sweeper to notice it (see the backoff below). */
export const COMPLETION_CHECK_MAX_S = 60;

/**
 * Records as completed the campaigns (of a company, or one of them, or every one) whose batches
 * are all dispatched or cancelled and whose messages are all final, and commits in the same
 * statement the `campaign.completed` event of those with a webhook address. The conditions are
 * checked here, not taken from an earlier read, so a stale read never completes one, and each
 * campaign completes (and is told) once. Returns the outbox rows to enqueue.
 *
 * No index names a message's status (so its updates stay in place), so the messages check reads
 * a campaign's rows until it meets one not final: cheap while many are, a whole scan when a
 * few receipts are late. The sweeper (no scope) therefore spaces a campaign's checks out, by a
 * tenth of its age, at most COMPLETION_CHECK_MAX_S; a request about a company or a campaign
 * always checks, and writes nothing unless the campaign completes.
 */
export async function completeFinishedCampaigns(
  db: DataSource,
  scope: { companyId?: string; campaignId?: string } = {},
): Promise<{ completed: number; outbox: { ids: string[]; jobs: OutboxJob[] } }> {
  const scoped = scope.companyId !== undefined || scope.campaignId !== undefined;
  const companyId = scope.companyId ?? null;
  const campaignId = scope.campaignId ?? null;
  const events = outboxRowsSelected(
    sql`SELECT ${QueueName.DeliveryEvents}, 'campaign.event', 'campaign-completed-' || id,
         jsonb_build_object('campaignId', id, 'type', 'campaign.completed', 'occurredAt', completed_at), completed_at
       FROM done WHERE webhook_url IS NOT NULL`,
    sql`id, (data->>'campaignId')::uuid AS campaign_id`,
  );
  const statement = sql`WITH checked AS MATERIALIZED (
       SELECT c.id, c.created_at,
         NOT EXISTS (SELECT 1 FROM messages m WHERE m.campaign_id = c.id AND m.status = ANY(${CAMPAIGN_NOT_FINAL}::text[])) AS finished
       FROM campaigns c
       WHERE (${companyId}::uuid IS NULL OR c.company_id = ${companyId}) AND (${campaignId}::uuid IS NULL OR c.id = ${campaignId})
         AND c.status IN ('queued', 'processing')
         AND (${scoped}::boolean OR c.completion_check_at IS NULL OR c.completion_check_at <= now())
         AND NOT EXISTS (SELECT 1 FROM campaign_batches b WHERE b.campaign_id = c.id AND b.status NOT IN ('dispatched', 'cancelled'))),
     done AS (
       UPDATE campaigns c SET status = 'completed', completed_at = now()
       FROM checked k WHERE c.id = k.id AND k.finished AND c.status IN ('queued', 'processing')
       RETURNING c.id, c.webhook_url, c.completed_at),
     later AS (
       UPDATE campaigns c SET completion_check_at = now() + least(make_interval(secs => ${COMPLETION_CHECK_MAX_S}), (now() - k.created_at) / 10)
       FROM checked k WHERE c.id = k.id AND NOT k.finished AND NOT ${scoped}::boolean),
     told AS (${events})
     SELECT d.id AS campaign_id, t.id AS outbox_id, d.completed_at AS occurred_at FROM done d LEFT JOIN told t ON t.campaign_id = d.id`;
  const rows: { campaign_id: string; outbox_id: string | null; occurred_at: Date }[] = await db.query(statement.text, statement.values);
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

/** completeFinishedCampaigns, for injection (the dispatcher's sweeper). */
export class CampaignCompletion {
  constructor(private readonly db: DataSource) {}

  completeFinished(scope: { companyId?: string; campaignId?: string } = {}): ReturnType<typeof completeFinishedCampaigns> {
    return completeFinishedCampaigns(this.db, scope);
  }
}
