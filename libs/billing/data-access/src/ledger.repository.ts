import { balancesAfterEach, formatMoney, Money, parseMoney, totalsByCompany } from '@mp/billing-domain';
import { QueryFailedError } from 'typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { empty, join, queryPrepared, raw, sql, unnest, type Sql } from '@mp/persistence';

/** Why a ledger entry moved a balance; `(company, kind, reference)` is unique, so an operation with a reference happens once. */
export const LEDGER_KINDS = ['topup', 'charge', 'refund', 'adjustment'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

export class InsufficientBalanceError extends Error {
  constructor(readonly balance: Money) {
    super('Insufficient balance');
    this.name = 'InsufficientBalanceError';
  }
}

export class UnknownCompanyError extends Error {
  constructor(readonly companyId: string) {
    super(`No company ${companyId}`);
    this.name = 'UnknownCompanyError';
  }
}

/** A ledger entry with this kind and reference was already written: the operation happened. */
export class AlreadyAppliedError extends Error {
  constructor(readonly reference: string) {
    super(`Ledger entry for ${reference} already exists`);
    this.name = 'AlreadyAppliedError';
  }
}

export interface LedgerMovement {
  companyId: string;
  kind: LedgerKind;
  /** Signed: positive credits, negative debits. */
  amount: Money;
  /** Makes the movement happen once per company and kind. */
  reference?: string;
  description?: string;
}

const UNIQUE_VIOLATION = '23505';

/** A debit decided by the caller from balances it holds locked: written as it is. */
export interface DecidedCharge {
  companyId: string;
  /** Positive: what is taken from the balance. */
  amount: Money;
  /** The balance right after this charge (charges of one company come in order). */
  balanceAfter: Money;
  /** Unique per company (for example the request id); makes the charge happen once. */
  reference: string;
  description?: string;
}

/**
 * A scalar sub-select for a bigger statement: the balances of these companies (a uuid[]: the ids,
 * or a fragment that gives them) as a JSON array of [company id, balance], in company order, their
 * rows locked in that order when `lock`. Read it back with balancesFromJson.
 */
export function balancesJson(companyIds: readonly string[] | Sql, options: { lock: boolean }): Sql {
  return sql`(SELECT json_agg(json_build_array(company_id, balance::text) ORDER BY company_id)
           FROM (SELECT company_id, balance FROM balances WHERE company_id = ANY(${companyIds}::uuid[]) ORDER BY company_id${options.lock ? raw(' FOR UPDATE') : empty}) b)`;
}

/** What balancesJson selected, by company. */
export function balancesFromJson(rows: readonly [string, string][] | null): Map<string, Money> {
  return new Map((rows ?? []).map(([companyId, balance]) => [companyId, parseMoney(balance)]));
}

/** A debit taken together with other writes, from whatever the balance is when they run. */
export interface GroupCharge {
  companyId: string;
  /** Positive: what is taken from the balance. */
  amount: Money;
  /** Unique per company (for example the request id); makes the charge happen once. */
  reference: string;
}

/**
 * CTEs for a bigger statement that takes `charges` without reading or locking the balances first:
 * each company's balance is debited by the sum of its charges, and each charge gets its ledger
 * entry with the balance right after it, the entries numbered in the charges' order (so that,
 * read in id order, each entry's balance is the one before it less its amount). `charged (company_id, balance)` answers the balances
 * after all of them. One UPDATE per company row, so the row lock lasts only to the end of that
 * statement (and, in autocommit, its commit).
 *
 * The statement fails, and so writes nothing at all, when a balance does not cover its
 * charges (the balances' CHECK) or a company has no balance row (the entries' balance_after is
 * then NULL); isUncoveredCharge tells those from other errors.
 */
export function chargeCtes(charges: readonly GroupCharge[]): Sql {
  const totals = totalsByCompany(charges);
  const later = balancesAfterEach(charges, new Map([...totals.keys()].map((companyId) => [companyId, 0n])));
  const moved = unnest([
    [[...totals.keys()], 'uuid'],
    [[...totals.values()].map(formatMoney), 'numeric'],
  ]);
  const entries = unnest([
    [charges.map((c) => c.companyId), 'uuid'],
    [charges.map((c) => formatMoney(-c.amount)), 'numeric'],
    [later.map(formatMoney), 'numeric'],
    [charges.map((c) => c.reference), 'text'],
  ]);
  return join(
    [
      sql`charged AS (
         UPDATE balances b SET balance = b.balance - v.total, updated_at = now()
         FROM ${moved} AS v(company_id, total) WHERE b.company_id = v.company_id
         RETURNING b.company_id, b.balance)`,
      sql`charge_entries AS (
         INSERT INTO ledger_entries (company_id, kind, amount, balance_after, reference)
         SELECT e.company_id, 'charge', e.amount, c.balance + e.later, e.reference
         FROM ${entries} WITH ORDINALITY AS e(company_id, amount, later, reference, position)
         LEFT JOIN charged c ON c.company_id = e.company_id
         ORDER BY e.position)`,
    ],
    ', ',
  );
}

const CHECK_VIOLATION = '23514';
const NOT_NULL_VIOLATION = '23502';
const DEADLOCK_DETECTED = '40P01';

/**
 * A statement with chargeCtes failed because a balance did not cover its charges, a company had
 * no balance, or (with several companies, whose rows it locks in no set order) a deadlock: the
 * caller decides charge by charge instead, with the balances locked in order.
 */
export function isUncoveredCharge(error: unknown): boolean {
  // As TypeORM wraps it, or as the driver raised it (a statement sent on a client directly).
  const code = ((error instanceof QueryFailedError ? error.driverError : error) as { code?: unknown } | null)?.code;
  return code === CHECK_VIOLATION || code === NOT_NULL_VIOLATION || code === DEADLOCK_DETECTED;
}

/**
 * Balances change only here, and only together with their ledger entry, in one statement:
 * the balance never goes below zero and never moves without a record of why.
 */
export class LedgerRepository {
  constructor(private readonly db: DataSource) {}

  async openBalance(manager: EntityManager, companyId: string): Promise<void> {
    await manager.query(`INSERT INTO balances (company_id, balance) VALUES ($1, 0)`, [companyId]);
  }

  /** Moves the balance and appends the entry; returns the balance after the movement. */
  async apply(movement: LedgerMovement, manager: EntityManager = this.db.manager): Promise<Money> {
    let rows: { balance_after: string }[];
    try {
      rows = await manager.query(
        `WITH moved AS (
           UPDATE balances SET balance = balance + $2::numeric, updated_at = now()
           WHERE company_id = $1 AND balance + $2::numeric >= 0
           RETURNING balance)
         INSERT INTO ledger_entries (company_id, kind, amount, balance_after, reference, description)
         SELECT $1, $3, $2::numeric, balance, $4, $5 FROM moved
         RETURNING balance_after`,
        [movement.companyId, formatMoney(movement.amount), movement.kind, movement.reference ?? null, movement.description ?? null],
      );
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION && movement.reference) {
        throw new AlreadyAppliedError(movement.reference);
      }
      throw error;
    }
    if (rows.length === 1) return parseMoney(rows[0].balance_after);
    const balance = await this.findBalance(movement.companyId, manager);
    if (balance === null) throw new UnknownCompanyError(movement.companyId);
    throw new InsufficientBalanceError(balance);
  }

  /**
   * The balances of these companies, in the caller's transaction. `lock: true` locks their rows
   * in company order (so concurrent batches cannot deadlock) until the transaction ends.
   */
  async readBalances(manager: EntityManager, companyIds: readonly string[], options: { lock: boolean }): Promise<Map<string, Money>> {
    const rows = await queryPrepared<{ company_id: string; balance: string }>(
      manager,
      `SELECT company_id, balance FROM balances WHERE company_id = ANY($1::uuid[]) ORDER BY company_id${options.lock ? ' FOR UPDATE' : ''}`,
      [[...new Set(companyIds)].sort()],
    );
    return new Map(rows.map((row) => [row.company_id, parseMoney(row.balance)]));
  }

  /**
   * Writes debits decided from balances the caller holds locked (see readBalances): the new
   * balances and one ledger entry per charge, in one statement. The balance CHECK still refuses
   * anything below zero.
   */
  async writeCharges(manager: EntityManager, charges: readonly DecidedCharge[], balancesAfter: ReadonlyMap<string, Money>): Promise<void> {
    if (charges.length === 0) return;
    const moved = [...new Set(charges.map((c) => c.companyId))];
    await queryPrepared(
      manager,
      `WITH moved AS (
         UPDATE balances b SET balance = v.balance, updated_at = now()
         FROM unnest($1::uuid[], $2::numeric[]) AS v(company_id, balance) WHERE b.company_id = v.company_id)
       INSERT INTO ledger_entries (company_id, kind, amount, balance_after, reference, description)
       SELECT company_id, 'charge', amount, balance_after, reference, description
       FROM unnest($3::uuid[], $4::numeric[], $5::numeric[], $6::text[], $7::text[]) AS e(company_id, amount, balance_after, reference, description)`,
      [
        moved,
        moved.map((id) => formatMoney(balancesAfter.get(id) as Money)),
        charges.map((c) => c.companyId),
        charges.map((c) => formatMoney(-c.amount)),
        charges.map((c) => formatMoney(c.balanceAfter)),
        charges.map((c) => c.reference),
        charges.map((c) => c.description ?? null),
      ],
    );
  }

  async findBalance(companyId: string, manager: EntityManager = this.db.manager): Promise<Money | null> {
    const rows: { balance: string }[] = await manager.query(`SELECT balance FROM balances WHERE company_id = $1`, [companyId]);
    return rows.length === 1 ? parseMoney(rows[0].balance) : null;
  }

  /**
   * Companies whose balance is not the balance their latest ledger entry recorded (0 without
   * one): a balance moved without its entry. One index probe per company
   * (ledger_entries_company_idx), for a check every minute. `companyIds`: only these (a test's own).
   */
  async countBalanceMismatches(companyIds?: readonly string[]): Promise<number> {
    const [row] = (await this.db.query(
      `SELECT count(*)::int AS mismatches FROM balances b
       LEFT JOIN LATERAL (SELECT e.balance_after FROM ledger_entries e WHERE e.company_id = b.company_id ORDER BY e.id DESC LIMIT 1) last ON true
       WHERE b.balance <> coalesce(last.balance_after, 0) AND ($1::uuid[] IS NULL OR b.company_id = ANY($1::uuid[]))`,
      [companyIds ?? null],
    )) as { mismatches: number }[];
    return row.mismatches;
  }

  /** The balance and the currency it is in, for GET /balance. */
  async findBalanceWithCurrency(companyId: string): Promise<{ balance: Money; currency: string } | null> {
    const rows: { balance: string; currency: string }[] = await this.db.query(
      `SELECT b.balance, c.currency FROM balances b JOIN companies c ON c.id = b.company_id WHERE b.company_id = $1`,
      [companyId],
    );
    return rows.length === 1 ? { balance: parseMoney(rows[0].balance), currency: rows[0].currency } : null;
  }
}
