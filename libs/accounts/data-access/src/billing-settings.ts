import { formatMoney, moneyToJson, parseMoney, type Money } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';
import { InvalidArgumentError, NotFoundError } from './errors';
import type { AuditActor, AuditLogRepository } from './people/audit-log.repository';

/** A company's billing settings, which its owners (and operators) change in the console. */
export interface BillingSettingsView {
  /** The console warns while the balance is below it; null: never. */
  lowBalanceThreshold: Money | null;
}

/** The largest threshold: what numeric(20, 4) holds. */
const MAX_THRESHOLD = parseMoney('9999999999999999.9999');

/** A threshold as the dashboard sends it: decimal text with at most 4 decimals, zero or more, or null for none. */
export function parseLowBalanceThreshold(value: unknown): Money | null {
  if (value === null) return null;
  const refused = new InvalidArgumentError('low_balance_threshold must be null or an amount as text with at most 4 decimals, zero or more, e.g. "25" or "7.5"');
  if (typeof value !== 'string') throw refused;
  let amount: Money;
  try {
    amount = parseMoney(value);
  } catch {
    throw refused;
  }
  if (amount < 0n || amount > MAX_THRESHOLD) throw refused;
  return amount;
}

/**
 * The `companies.low_balance_threshold` setting: read, and changed with an audit entry
 * (`settings.changed`, `{ billing: { low_balance_threshold } }`) in the same transaction.
 */
export class BillingSettings {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  /** null when no company has this id. */
  async get(companyId: string): Promise<BillingSettingsView | null> {
    const rows: { low_balance_threshold: string | null }[] = await this.db.query(`SELECT low_balance_threshold::text FROM companies WHERE id = $1`, [
      companyId,
    ]);
    if (rows.length === 0) return null;
    const threshold = rows[0].low_balance_threshold;
    return { lowBalanceThreshold: threshold === null ? null : parseMoney(threshold) };
  }

  async setLowBalanceThreshold(companyId: string, threshold: Money | null, actor: AuditActor): Promise<BillingSettingsView> {
    return this.db.transaction(async (manager) => {
      const [{ changed }]: { changed: number }[] = await manager.query(
        `WITH changed AS (UPDATE companies SET low_balance_threshold = $2::numeric WHERE id = $1 RETURNING id) SELECT count(*)::int AS changed FROM changed`,
        [companyId, threshold === null ? null : formatMoney(threshold)],
      );
      if (changed === 0) throw new NotFoundError(`no company ${companyId}`);
      await this.audit.record(manager, {
        companyId,
        actor,
        action: 'settings.changed',
        details: { billing: { low_balance_threshold: threshold === null ? null : moneyToJson(threshold) } },
      });
      return { lowBalanceThreshold: threshold };
    });
  }
}
