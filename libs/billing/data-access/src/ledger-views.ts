import { formatMoney, moneyToJson, parseMoney } from '@mp/billing-domain';
import { decodeCursorOrThrow, join, keysetPage, sql, type KeysetPage, type Sql } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { csvRecord, csvText } from './csv';
import { LEDGER_KINDS, type LedgerKind } from './ledger.repository';

export interface LedgerFilter {
  /** Any of these kinds; null: all. */
  kinds: readonly LedgerKind[] | null;
  /** Created at or after. */
  from: Date | null;
  /** Created before. */
  before: Date | null;
  /** The entry's reference, exact (`message:<id>`, `otp:<id>`, a request id…). */
  reference: string | null;
}

export const NO_LEDGER_FILTER: LedgerFilter = { kinds: null, from: null, before: null, reference: null };
export const LEDGER_MAX_LIMIT = 100;
/** The longest range the spend by day covers. */
export const SPEND_MAX_DAYS = 366;

/** One ledger entry: amounts signed (a charge is negative) and exact, as JSON numbers of at most 4 decimals. */
export interface LedgerItem {
  id: number;
  created_at: string;
  kind: LedgerKind;
  amount: number;
  balance_after: number;
  reference: string | null;
  description: string | null;
}

/** What the company spent on a UTC day: charges less refunds, exact. */
export interface SpendDay {
  day: string;
  charged: number;
  refunded: number;
  spent: number;
}

export class LedgerFilterError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerFilterError';
  }
}

interface EntryRow {
  id: string;
  created_at: Date;
  kind: LedgerKind;
  amount: string;
  balance_after: string;
  reference: string | null;
  description: string | null;
}

const CURSOR_SHAPE = [/[0-9]{1,19}/];
const CSV_BATCH = 1000;

/** The first thing wrong with a filter, as a 400's `error` names it; null when it can be run. */
export function ledgerFilterError(filter: LedgerFilter): string | null {
  if (filter.kinds?.some((kind) => !(LEDGER_KINDS as readonly string[]).includes(kind))) return `kind must be one of ${LEDGER_KINDS.join(', ')}`;
  for (const date of [filter.from, filter.before]) if (date && Number.isNaN(date.getTime())) return 'dates must be ISO 8601 timestamps';
  if (filter.from && filter.before && filter.from >= filter.before) return 'from must be before to';
  return null;
}

function conditions(companyId: string, filter: LedgerFilter, afterId: string | null): Sql {
  const where: Sql[] = [sql`l.company_id = ${companyId}`];
  // With a reference and no kind, every kind: the (company, kind, reference) index is then probed
  // once per kind instead of read through.
  const kinds = filter.kinds ?? (filter.reference !== null ? LEDGER_KINDS : null);
  if (kinds !== null) where.push(sql`l.kind = ANY(${[...kinds]}::text[])`);
  if (filter.reference !== null) where.push(sql`l.reference = ${filter.reference}`);
  if (filter.from !== null) where.push(sql`l.created_at >= ${filter.from.toISOString()}::timestamptz`);
  if (filter.before !== null) where.push(sql`l.created_at < ${filter.before.toISOString()}::timestamptz`);
  if (afterId !== null) where.push(sql`l.id < ${afterId}::bigint`);
  return join(where, ' AND ');
}

async function entries(db: DataSource, companyId: string, filter: LedgerFilter, afterId: string | null, limit: number): Promise<EntryRow[]> {
  const error = ledgerFilterError(filter);
  if (error) throw new LedgerFilterError(error);
  const statement = sql`SELECT l.id::text AS id, l.created_at, l.kind, l.amount::text AS amount, l.balance_after::text AS balance_after, l.reference, l.description
     FROM ledger_entries l WHERE ${conditions(companyId, filter, afterId)} ORDER BY l.id DESC LIMIT ${limit}`;
  return db.query(statement.text, statement.values);
}

/**
 * The company's ledger, newest first, in the order its entries were written (by id: an entry's
 * balance_after follows from the one before it), a page at a time after a keyset cursor. Throws
 * InvalidCursorError for a cursor that is not one of this list's, LedgerFilterError for a filter
 * that cannot be run.
 */
export async function listLedger(
  db: DataSource,
  companyId: string,
  filter: LedgerFilter,
  page: { limit: number; cursor: string | null },
): Promise<KeysetPage<LedgerItem>> {
  if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > LEDGER_MAX_LIMIT) {
    throw new LedgerFilterError(`limit must be an integer from 1 to ${LEDGER_MAX_LIMIT}`);
  }
  const after = page.cursor === null ? null : decodeCursorOrThrow(page.cursor, CURSOR_SHAPE)[0];
  const rows = await entries(db, companyId, filter, after, page.limit + 1);
  return keysetPage(rows, page.limit, (row) => [row.id], ledgerItem);
}

function ledgerItem(row: EntryRow): LedgerItem {
  return {
    id: Number(row.id),
    created_at: new Date(row.created_at).toISOString(),
    kind: row.kind,
    amount: moneyToJson(parseMoney(row.amount)),
    balance_after: moneyToJson(parseMoney(row.balance_after)),
    reference: row.reference,
    description: row.description,
  };
}

/**
 * Charges less refunds per UTC day over [from, before), every day of the range listed (zeros on
 * a day without any), summed exactly by PostgreSQL from `ledger_entries_company_created_idx`
 * alone (it carries kind and amount). Top-ups and adjustments are not spending.
 */
export async function spendByDay(db: DataSource, companyId: string, range: { from: Date; before: Date }): Promise<SpendDay[]> {
  const error = ledgerFilterError({ ...NO_LEDGER_FILTER, ...range });
  if (error) throw new LedgerFilterError(error);
  if (range.before.getTime() - range.from.getTime() > SPEND_MAX_DAYS * 86_400_000)
    throw new LedgerFilterError(`the range must be at most ${SPEND_MAX_DAYS} days`);
  const rows: { day: string; charged: string; refunded: string }[] = await db.query(
    `WITH days AS (
       SELECT to_char(d, 'YYYY-MM-DD') AS day
       FROM generate_series(date_trunc('day', $2::timestamptz AT TIME ZONE 'UTC'), ($3::timestamptz AT TIME ZONE 'UTC') - interval '1 microsecond', interval '1 day') AS d),
     sums AS (
       SELECT to_char(l.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
         coalesce(-sum(l.amount) FILTER (WHERE l.kind = 'charge'), 0) AS charged,
         coalesce(sum(l.amount) FILTER (WHERE l.kind = 'refund'), 0) AS refunded
       FROM ledger_entries l
       WHERE l.company_id = $1 AND l.created_at >= $2 AND l.created_at < $3 AND l.kind IN ('charge', 'refund')
       GROUP BY 1)
     SELECT days.day, coalesce(sums.charged, 0)::text AS charged, coalesce(sums.refunded, 0)::text AS refunded
     FROM days LEFT JOIN sums ON sums.day = days.day ORDER BY days.day`,
    [companyId, range.from.toISOString(), range.before.toISOString()],
  );
  return rows.map((row) => {
    const charged = parseMoney(row.charged);
    const refunded = parseMoney(row.refunded);
    return { day: row.day, charged: moneyToJson(charged), refunded: moneyToJson(refunded), spent: moneyToJson(charged - refunded) };
  });
}

/** The CSV's columns, its first line. Amounts are exact numeric text with 4 decimals (`-0.0137`). */
export const LEDGER_CSV_COLUMNS = ['id', 'created_at', 'kind', 'amount', 'balance_after', 'reference', 'description'] as const;

const money = (text: string): string => formatMoney(parseMoney(text));

/** One entry as a CSV record: free texts kept from being read as formulas, amounts exact. */
export function ledgerCsvRecord(row: EntryRow): string {
  return csvRecord([
    row.id,
    new Date(row.created_at).toISOString(),
    row.kind,
    money(row.amount),
    money(row.balance_after),
    csvText(row.reference),
    csvText(row.description),
  ]);
}

/**
 * The entries that match as CSV, newest first, in chunks of up to 1000 records (the first chunk
 * starts with the header), read a batch at a time by id: memory stays flat however long the
 * ledger, and no transaction is held open between batches. The ledger is append-only and the
 * export reads below the newest id it saw when it started, so every entry committed before then
 * is in it once, and none written after. For `Readable.from(…)` as a response body.
 */
export async function* ledgerCsv(db: DataSource, companyId: string, filter: LedgerFilter): AsyncGenerator<string> {
  const [{ top }]: { top: string | null }[] = await db.query(`SELECT max(id)::text AS top FROM ledger_entries WHERE company_id = $1`, [companyId]);
  yield csvRecord(LEDGER_CSV_COLUMNS);
  if (top === null) return;
  let after = (BigInt(top) + 1n).toString();
  for (;;) {
    const rows = await entries(db, companyId, filter, after, CSV_BATCH);
    if (rows.length > 0) yield rows.map(ledgerCsvRecord).join('');
    if (rows.length < CSV_BATCH) return;
    after = rows[rows.length - 1].id;
  }
}

/** The suggested file name of an export. */
export function ledgerCsvFileName(companyName: string, at: Date): string {
  const slug =
    companyName
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'company';
  return `ledger-${slug}-${at.toISOString().slice(0, 10)}.csv`;
}

/** The console's billing reads (listLedger, spendByDay, ledgerCsv), every read scoped to a company, for injection. */
export class LedgerViews {
  constructor(private readonly db: DataSource) {}

  list(companyId: string, filter: LedgerFilter, page: { limit: number; cursor: string | null }): Promise<KeysetPage<LedgerItem>> {
    return listLedger(this.db, companyId, filter, page);
  }

  spendByDay(companyId: string, range: { from: Date; before: Date }): Promise<SpendDay[]> {
    return spendByDay(this.db, companyId, range);
  }

  csv(companyId: string, filter: LedgerFilter): AsyncGenerator<string> {
    return ledgerCsv(this.db, companyId, filter);
  }
}
