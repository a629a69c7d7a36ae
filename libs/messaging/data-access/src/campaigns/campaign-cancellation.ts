import { LedgerRepository } from '@mp/billing';
import { formatMoney, parseMoney, type Money } from '@mp/billing-domain';
import type { DataSource, EntityManager } from 'typeorm';
import { isCampaignId } from './campaign-views';

export type CampaignCancellation =
  | { outcome: 'cancelled'; batchIds: string[]; cancelledRecipients: number; refunded: Money; balance: Money; campaignStatus: string }
  | { outcome: 'nothing-to-cancel' }
  | { outcome: 'not-found' };

interface LockedBatch {
  id: string;
  position: number;
  status: string;
  cost: string;
  size: number;
}

/**
 * Cancels every batch of a campaign not yet started and refunds exactly their cost, in one
 * transaction and one ledger entry. The batch rows are locked in position order, as the
 * dispatcher locks the one it starts, so a batch is either started or cancelled, never both; its
 * refund reference names the first batch it cancels, so no batch can be refunded twice.
 */
export class CampaignCancellationService {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  async cancel(companyId: string, campaignId: string, now: Date = new Date()): Promise<CampaignCancellation> {
    if (!isCampaignId(campaignId)) return { outcome: 'not-found' };
    return this.db.transaction(async (manager) => {
      const found: unknown[] = await manager.query(`SELECT 1 FROM campaigns WHERE id = $1 AND company_id = $2`, [campaignId, companyId]);
      if (found.length === 0) return { outcome: 'not-found' };
      // Batches before the campaign row: the dispatcher locks its batch, then updates the campaign.
      const batches: LockedBatch[] = await manager.query(
        `SELECT id, position, status, cost::text AS cost, cardinality(recipients) AS size
         FROM campaign_batches WHERE campaign_id = $1 ORDER BY position FOR UPDATE`,
        [campaignId],
      );
      const open = batches.filter((b) => b.status === 'queued' || b.status === 'scheduled');
      if (open.length === 0) return { outcome: 'nothing-to-cancel' };
      const noneStarted = open.length + batches.filter((b) => b.status === 'cancelled').length === batches.length;
      const refunded = open.reduce((sum, b) => sum + parseMoney(b.cost), 0n);
      await manager.query(`UPDATE campaign_batches SET status = 'cancelled', cancelled_at = $2 WHERE id = ANY($1::uuid[])`, [open.map((b) => b.id), now]);
      const [{ status }]: { status: string }[] = await manager.query(
        `WITH updated AS (
           UPDATE campaigns SET refunded = refunded + $2::numeric,
             status = CASE WHEN $3 THEN 'cancelled' ELSE status END, cancelled_at = CASE WHEN $3 THEN $4 ELSE cancelled_at END
           WHERE id = $1 RETURNING status)
         SELECT status FROM updated`,
        [campaignId, formatMoney(refunded), noneStarted, now],
      );
      const balance = await this.refund(manager, companyId, `campaign-cancel:${campaignId}:${open[0].position}`, refunded);
      return {
        outcome: 'cancelled',
        batchIds: open.map((b) => b.id),
        cancelledRecipients: open.reduce((sum, b) => sum + b.size, 0),
        refunded,
        balance,
        campaignStatus: status,
      };
    });
  }

  /** Batches priced at nothing refund nothing: no ledger entry, the balance as it is. */
  private async refund(manager: EntityManager, companyId: string, reference: string, amount: Money): Promise<Money> {
    if (amount === 0n) return (await this.ledger.findBalance(companyId, manager)) ?? 0n;
    return this.ledger.apply({ companyId, kind: 'refund', amount, reference, description: 'campaign batches cancelled before they started' }, manager);
  }
}
