import type { PriceRule } from '@mp/billing-domain';
import { DataSource } from 'typeorm';
import { PriceEntity } from './entities';

export class PriceRepository {
  constructor(private readonly db: DataSource) {}

  /** Sets the price of a prefix and route, replacing any earlier one. */
  async upsert(rule: PriceRule): Promise<PriceRule> {
    await this.db.getRepository(PriceEntity).upsert(rule, ['prefix', 'route']);
    return rule;
  }

  /** Sets every rule, or none: one transaction, each (prefix, route) replacing any earlier price. */
  async upsertAll(rules: readonly PriceRule[]): Promise<void> {
    await this.db.transaction(async (manager) => {
      const prices = manager.getRepository(PriceEntity);
      for (let start = 0; start < rules.length; start += 500) await prices.upsert(rules.slice(start, start + 500), ['prefix', 'route']);
    });
  }

  async list(): Promise<PriceRule[]> {
    const rows = await this.db.getRepository(PriceEntity).find({ order: { prefix: 'ASC', route: 'ASC' } });
    return rows.map(({ prefix, route, price }) => ({ prefix, route, price }));
  }
}
