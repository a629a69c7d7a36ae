import { parseMoney, type Money, type PriceRule } from '@mp/billing-domain';
import { DataSource, type EntityManager } from 'typeorm';
import { PriceEntity } from './entities';

/** Rows written a statement at a time by upsertAll. */
const UPSERT_BATCH = 500;

export class PriceRepository {
  constructor(private readonly db: DataSource) {}

  /** Sets the price of a prefix and route, replacing any earlier one, in the caller's transaction (which audits it). */
  async upsert(rule: PriceRule, manager: EntityManager): Promise<PriceRule> {
    await manager.getRepository(PriceEntity).upsert(rule, ['prefix', 'route']);
    return rule;
  }

  /** Sets every rule in the caller's transaction, so all or none: each (prefix, route) replacing any earlier price. */
  async upsertAll(rules: readonly PriceRule[], manager: EntityManager): Promise<void> {
    const prices = manager.getRepository(PriceEntity);
    for (let start = 0; start < rules.length; start += UPSERT_BATCH) await prices.upsert(rules.slice(start, start + UPSERT_BATCH), ['prefix', 'route']);
  }

  /** The price of a prefix and route now, or null; locked until the caller's transaction ends, so the change audited is the one made. */
  async findForUpdate(prefix: string, route: PriceRule['route'], manager: EntityManager): Promise<Money | null> {
    const row = await manager.getRepository(PriceEntity).findOne({ where: { prefix, route }, lock: { mode: 'pessimistic_write' } });
    return row?.price ?? null;
  }

  /** In SQL, not through the entity: a worker whose DataSource does not register PriceEntity (the dispatcher's keyword replies) reads it too. */
  async list(): Promise<PriceRule[]> {
    const rows: { prefix: string; route: PriceRule['route']; price: string }[] = await this.db.query(
      `SELECT prefix, route, price::text AS price FROM prices ORDER BY prefix, route`,
    );
    return rows.map(({ prefix, route, price }) => ({ prefix, route, price: parseMoney(price) }));
  }
}
