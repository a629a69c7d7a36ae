import type { CompanySettings } from '@mp/accounts-domain';
import { parseMoney, type Money } from '@mp/billing-domain';
import { DataSource, EntityManager } from 'typeorm';
import { CompanyEntity } from './entities';

/** A company as the operators' list shows it. */
export interface CompanySummary {
  id: string;
  name: string;
  currency: string;
  balance: Money;
  createdAt: Date;
  suspendedAt: Date | null;
}

interface CompanySummaryRow {
  id: string;
  name: string;
  currency: string;
  balance: string | null;
  created_at: Date;
  suspended_at: Date | null;
}

const SUMMARY = `SELECT c.id, c.name, c.currency, b.balance::text AS balance, c.created_at, c.suspended_at
  FROM companies c LEFT JOIN balances b ON b.company_id = c.id`;

function summary(row: CompanySummaryRow): CompanySummary {
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    balance: parseMoney(row.balance ?? '0'),
    createdAt: row.created_at,
    suspendedAt: row.suspended_at,
  };
}

export class CompanyRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { name: string; currency: string; otpRateLimit: number; webhookSecret: string }): Promise<CompanyEntity> {
    const companies = manager.getRepository(CompanyEntity);
    return companies.save(companies.create(row));
  }

  async findById(id: string): Promise<CompanyEntity | null> {
    return this.db.getRepository(CompanyEntity).findOneBy({ id });
  }

  /** Applies validated settings; null when the company does not exist. */
  async update(id: string, settings: Partial<CompanySettings>, manager: EntityManager = this.db.manager): Promise<CompanyEntity | null> {
    const changes: Partial<CompanyEntity> = {};
    if (settings.name !== undefined) changes.name = settings.name;
    if (settings.currency !== undefined) changes.currency = settings.currency;
    if (settings.otp_rate_limit !== undefined) changes.otpRateLimit = settings.otp_rate_limit;
    if (Object.keys(changes).length > 0) await manager.getRepository(CompanyEntity).update({ id }, changes);
    return manager.getRepository(CompanyEntity).findOneBy({ id });
  }

  /** Every company with its balance, by name (the platform has hundreds, not millions). */
  async listSummaries(): Promise<CompanySummary[]> {
    const rows: CompanySummaryRow[] = await this.db.query(`${SUMMARY} ORDER BY lower(c.name), c.id`);
    return rows.map(summary);
  }

  async findSummary(id: string): Promise<CompanySummary | null> {
    const rows: CompanySummaryRow[] = await this.db.query(`${SUMMARY} WHERE c.id = $1`, [id]);
    return rows[0] ? summary(rows[0]) : null;
  }

  /**
   * Sets (a Date) or clears (null) the company's suspension; the time it has after, and whether
   * this call changed it. Null when the company does not exist.
   */
  async setSuspended(manager: EntityManager, id: string, suspended: boolean): Promise<{ suspendedAt: Date | null; changed: boolean } | null> {
    const rows: { suspended_at: Date | null; changed: boolean }[] = await manager.query(
      `WITH before AS (SELECT id, suspended_at FROM companies WHERE id = $1 FOR UPDATE),
            after AS (
              UPDATE companies c SET suspended_at = CASE WHEN $2::boolean THEN coalesce(b.suspended_at, now()) ELSE NULL END
              FROM before b WHERE c.id = b.id RETURNING c.suspended_at)
       SELECT a.suspended_at, (b.suspended_at IS NULL) = $2::boolean AS changed FROM after a, before b`,
      [id, suspended],
    );
    return rows[0] ? { suspendedAt: rows[0].suspended_at, changed: rows[0].changed } : null;
  }
}
