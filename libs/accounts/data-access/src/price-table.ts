import { formatPriceCsv, parsePriceCsv, PriceCsvError, type PriceRule } from '@mp/billing-domain';
import type { DataSource } from 'typeorm';
import { InvalidArgumentError } from './errors';
import { AuditLogRepository, type AuditActor } from './people/audit-log.repository';
import { PriceRepository } from './price.repository';

/**
 * The price table as a whole, for the operators' console: listed, exported and imported as CSV
 * (one price at a time is CatalogService.setPrice, as for the admin tool).
 */
export class PriceTable {
  constructor(
    private readonly db: DataSource,
    private readonly prices: PriceRepository,
    private readonly audit: AuditLogRepository,
  ) {}

  async list(): Promise<PriceRule[]> {
    return this.prices.list();
  }

  /** The table as CSV (formatPriceCsv): what importCsv reads back. */
  async exportCsv(): Promise<string> {
    return formatPriceCsv(await this.prices.list());
  }

  /**
   * Sets the prices a CSV gives (parsePriceCsv): every row checked first, then all written in one
   * transaction with their audit entry (`prices.imported`, a platform one naming `actor`), or
   * none (InvalidArgumentError naming the bad line). Prices the file leaves out stay.
   */
  async importCsv(csv: string, actor: AuditActor = null): Promise<{ imported: number }> {
    let rules: PriceRule[];
    try {
      rules = parsePriceCsv(csv);
    } catch (error) {
      if (error instanceof PriceCsvError) throw new InvalidArgumentError(error.message);
      throw error;
    }
    await this.db.transaction(async (manager) => {
      await this.prices.upsertAll(rules, manager);
      await this.audit.record(manager, { companyId: null, actor, action: 'prices.imported', details: { count: rules.length } });
    });
    return { imported: rules.length };
  }
}
