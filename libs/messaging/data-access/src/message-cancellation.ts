import { LedgerRepository } from '@mp/billing';
import { parseMoney, type Money } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';

export type Cancellation =
  { outcome: 'cancelled'; refunded: Money; balance: Money } | { outcome: 'not-cancellable'; status: string } | { outcome: 'not-found' };

/**
 * Cancels a scheduled message, its parts with it, and refunds it, once: the status changes and
 * the refund are one transaction, and only a message still `scheduled` can change. A dispatcher
 * that picks the message up at the same moment moves it out of `scheduled` first, so exactly one
 * of them wins.
 */
export class MessageCancellationService {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  async cancel(companyId: string, messageId: string): Promise<Cancellation> {
    return this.db.transaction(async (manager) => {
      const rows: { cost: string }[] = await manager.query(
        // A CTE, so the driver answers rows (a bare UPDATE … RETURNING answers [rows, count]).
        `WITH cancelled AS (
           UPDATE messages SET status = 'cancelled', cancelled_at = now(), updated_at = now(), refunded = cost
           WHERE id = $1 AND company_id = $2 AND status = 'scheduled'
           RETURNING id, cost),
         parts AS (
           UPDATE message_parts p SET status = 'cancelled' FROM cancelled c WHERE p.message_id = c.id AND p.status = 'pending')
         SELECT cost FROM cancelled`,
        [messageId, companyId],
      );
      if (rows.length === 0) {
        const existing: { status: string }[] = await manager.query(`SELECT status FROM messages WHERE id = $1 AND company_id = $2`, [messageId, companyId]);
        return existing.length === 0 ? { outcome: 'not-found' } : { outcome: 'not-cancellable', status: existing[0].status };
      }
      const refunded = parseMoney(rows[0].cost);
      const balance = await this.ledger.apply(
        { companyId, kind: 'refund', amount: refunded, reference: `message:${messageId}`, description: 'scheduled message cancelled' },
        manager,
      );
      return { outcome: 'cancelled', refunded, balance };
    });
  }
}
