import { queryPrepared } from '@mp/persistence';
import { outboxRows, type OutboxJob } from '@mp/queue-runtime';
import type { DataSource, EntityManager } from 'typeorm';
import { webhookDeliverJob } from './deliver-jobs';
import { isDeliveryId } from './webhook-delivery-log';

/** Hands jobs committed in the outbox to their queues (the app's OutboxRelay). */
export type RelayJobs = (ids: readonly string[], jobs: readonly OutboxJob[]) => Promise<unknown>;

/** A resend asked for: the attempt it makes (already asked for: the same attempt, nothing more). */
export interface WebhookResend {
  deliveryId: string;
  attempt: number;
  alreadyAsked: boolean;
}

/** A delivery still on its retry schedule: it is not resent (its next attempt is coming). */
export class DeliveryStillRetryingError extends Error {
  constructor(readonly nextAttemptAt: Date | null) {
    super('The delivery is still being retried; resend it once it is delivered or dead');
    this.name = 'DeliveryStillRetryingError';
  }
}

interface StateRow {
  status: string;
  attempts: number;
  resend_attempt: number | null;
  next_attempt_at: Date | null;
}

/**
 * Resending a delivered or dead delivery from the console: the same delivery (the same
 * `webhook-id`, so a receiver's deduplication sees a repeat) gets one more attempt, now, through
 * the webhook-notifier's own path: a webhook.deliver job for that attempt number, committed in
 * the outbox with the delivery's change and relayed after the commit. Asking again before that
 * attempt is made is the same resend. The attempt's failure dead-letters the delivery again
 * (decision 0039).
 */
export class WebhookResends {
  constructor(
    private readonly db: DataSource,
    private readonly relay: RelayJobs,
  ) {}

  /** Null when the company has no delivery with this id. */
  async resend(companyId: string, deliveryId: string): Promise<WebhookResend | null> {
    if (!isDeliveryId(deliveryId)) return null;
    const committed = await this.db.transaction(async (manager) => {
      const [resent]: { attempt: number }[] = await manager.query(
        `WITH resent AS (
         UPDATE webhook_deliveries
         SET status = 'pending', resend_attempt = attempts + 1, next_attempt_at = now(), delivered_at = NULL, dead_at = NULL
         WHERE id = $1 AND company_id = $2 AND status IN ('delivered', 'dead')
         RETURNING attempts + 1 AS attempt
         ) SELECT attempt FROM resent`,
        [deliveryId, companyId],
      );
      if (resent) return this.commitJob(manager, deliveryId, Number(resent.attempt), false);
      const [state]: StateRow[] = await manager.query(
        `SELECT status, attempts, resend_attempt, next_attempt_at FROM webhook_deliveries WHERE id = $1 AND company_id = $2`,
        [deliveryId, companyId],
      );
      if (!state) return null;
      if (state.resend_attempt !== null && Number(state.resend_attempt) === Number(state.attempts) + 1) {
        return this.commitJob(manager, deliveryId, Number(state.resend_attempt), true);
      }
      throw new DeliveryStillRetryingError(state.next_attempt_at);
    });
    if (!committed) return null;
    await this.relay(committed.ids, [committed.job]);
    return { deliveryId, attempt: committed.attempt, alreadyAsked: committed.alreadyAsked };
  }

  private async commitJob(manager: EntityManager, deliveryId: string, attempt: number, alreadyAsked: boolean) {
    const job = webhookDeliverJob(deliveryId, attempt);
    const rows = await queryPrepared<{ id: string }>(manager, outboxRows([job]));
    return { ids: rows.map((row) => String(row.id)), job, attempt, alreadyAsked };
  }
}
