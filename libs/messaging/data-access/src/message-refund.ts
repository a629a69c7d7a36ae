import { AlreadyAppliedError, LedgerRepository } from '@mp/billing';
import { formatMoney, parseMoney, type Money } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';

export type RefundOutcome = { refunded: Money; balance: Money } | { refunded: 0n; reason: 'nothing-to-refund' | 'already-refunded' | 'unknown-message' };

/**
 * Refunds the parts of a message that never reached a carrier (refused at submit, or given up
 * after the last retry), once: the message row is locked, the amount is what those parts cost
 * less what was already refunded, and the ledger entry's reference can exist only once.
 */
export class MessageRefundService {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  async refund(messageId: string): Promise<RefundOutcome> {
    try {
      return await this.db.transaction(async (manager) => {
        const rows: { company_id: string; price_per_part: string; refunded: string; failed_parts: number }[] = await manager.query(
          `SELECT m.company_id, m.price_per_part, m.refunded,
                  (SELECT count(*)::int FROM message_parts p WHERE p.message_id = m.id AND p.status = 'failed') AS failed_parts
           FROM messages m WHERE m.id = $1 FOR UPDATE`,
          [messageId],
        );
        if (rows.length === 0) return { refunded: 0n, reason: 'unknown-message' } as const;
        const [row] = rows;
        const owed = parseMoney(row.price_per_part) * BigInt(row.failed_parts) - parseMoney(row.refunded);
        if (owed <= 0n) return { refunded: 0n, reason: 'nothing-to-refund' } as const;
        await manager.query(`UPDATE messages SET refunded = refunded + $2::numeric, updated_at = now() WHERE id = $1`, [messageId, formatMoney(owed)]);
        const balance = await this.ledger.apply(
          { companyId: row.company_id, kind: 'refund', amount: owed, reference: `message:${messageId}`, description: 'parts that never reached a carrier' },
          manager,
        );
        return { refunded: owed, balance };
      });
    } catch (error) {
      if (error instanceof AlreadyAppliedError) return { refunded: 0n, reason: 'already-refunded' };
      throw error;
    }
  }
}
