import { decodeCursorOrThrow, keysetPage, type KeysetPage } from '@mp/persistence';
import type { DataSource } from 'typeorm';

export type OptOutSource = 'keyword' | 'api' | 'import' | 'console' | 'admin';
export const OPT_OUT_SOURCES: readonly OptOutSource[] = ['keyword', 'api', 'import', 'console', 'admin'];

export interface NewOptOut {
  /** E.164. */
  phone: string;
  /** The company's number the opt-out is for; null for every number of the company. */
  number: string | null;
  source: OptOutSource;
  /** When the contact opted out (an import carries its own times); now when absent. */
  createdAt?: Date;
}

export interface OptOutView {
  phone: string;
  number: string | null;
  source: OptOutSource;
  created_at: string;
}

export interface OptOutFilter {
  phone?: string;
  number?: string;
  source?: OptOutSource;
  limit: number;
  cursor?: string;
}

interface OptOutRow {
  id: string;
  phone: string;
  number: string | null;
  source: OptOutSource;
  created_at: Date;
}

const CURSOR_SHAPE = [/\d{1,19}/];

/**
 * A company number as opt-outs store and compare it, however a send's `from` or the carrier's
 * destination wrote it: a long number (9 to 15 digits, after a `+` or an international `00`) in
 * E.164 with its `+`; a short code (3 to 8 digits) bare, as it is assigned, even when the carrier
 * gave it a `+`; a sender id as given.
 */
export function canonicalNumber(number: string): string {
  const trimmed = number.trim();
  const long = /^(?:\+?00|\+)?(\d{9,15})$/.exec(trimmed);
  if (long) return `+${long[1]}`;
  const short = /^\+?(\d{3,8})$/.exec(trimmed);
  return short ? short[1] : trimmed;
}
const canonicalOrNull = (number: string | null) => (number === null ? null : canonicalNumber(number));

/**
 * A company's suppression list: the numbers that opted out, of one of its numbers or of all. Every
 * read and write is scoped to one company. This lib is the only one that writes `opt_outs`.
 */
export class OptOutStore {
  constructor(private readonly db: DataSource) {}

  /** Adds entries in one statement; an entry already on the list is kept as it was. Answers how many were new. */
  async add(companyId: string, entries: readonly NewOptOut[]): Promise<{ added: number }> {
    if (entries.length === 0) return { added: 0 };
    const now = new Date();
    const rows: { id: string }[] = await this.db.query(
      `INSERT INTO opt_outs (company_id, phone, number, source, created_at)
       SELECT $1, e.phone, e.number, e.source, e.created_at
       FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS e (phone, number, source, created_at)
       ON CONFLICT (company_id, phone, (coalesce(number, ''))) DO NOTHING
       RETURNING id`,
      [
        companyId,
        entries.map((e) => e.phone),
        entries.map((e) => canonicalOrNull(e.number)),
        entries.map((e) => e.source),
        entries.map((e) => (e.createdAt ?? now).toISOString()),
      ],
    );
    return { added: rows.length };
  }

  /**
   * Lifts opt-outs of a phone: for one number when `number` is given (null: the company-wide
   * entry), every entry of the phone when undefined. Answers how many were removed.
   */
  async remove(companyId: string, phone: string, number?: string | null): Promise<{ removed: number }> {
    const scope = number === undefined ? '' : number === null ? 'AND number IS NULL' : 'AND number = $3';
    const params = number === undefined || number === null ? [companyId, phone] : [companyId, phone, canonicalNumber(number)];
    const [, removed]: [unknown, number] = await this.db.query(`DELETE FROM opt_outs WHERE company_id = $1 AND phone = $2 ${scope}`, params);
    return { removed };
  }

  /** Newest first, keyset-paginated. Throws InvalidCursorError for a cursor that is not one of this list. */
  async list(companyId: string, filter: OptOutFilter): Promise<KeysetPage<OptOutView>> {
    const params: unknown[] = [companyId];
    const where = ['company_id = $1'];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.phone !== undefined) add('phone = ?', filter.phone);
    if (filter.number !== undefined) add('number = ?', canonicalNumber(filter.number));
    if (filter.source !== undefined) add('source = ?', filter.source);
    if (filter.cursor !== undefined) add('id < ?', decodeCursorOrThrow(filter.cursor, CURSOR_SHAPE)[0]);
    params.push(filter.limit + 1);
    const rows: OptOutRow[] = await this.db.query(
      // Ordered by the table's bigint id, not the selected text (a bare `id` would sort "9" after "10").
      `SELECT o.id::text AS id, o.phone, o.number, o.source, o.created_at FROM opt_outs o WHERE ${where.join(' AND ')} ORDER BY o.id DESC LIMIT $${params.length}`,
      params,
    );
    return keysetPage(rows, filter.limit, (row) => [row.id], toView);
  }

  /**
   * The phones among `phones` that opted out of `sender` or of every number of the company: one
   * indexed query for them all.
   */
  async suppressedAmong(companyId: string, sender: string, phones: readonly string[]): Promise<Set<string>> {
    return (await this.suppressedForMany([{ companyId, sender, phones }]))[0];
  }

  /** suppressedAmong for several sends at once, in one query (the SuppressionCheck's group). */
  async suppressedForMany(checks: readonly { companyId: string; sender: string; phones: readonly string[] }[]): Promise<Set<string>[]> {
    const companies: string[] = [];
    const phones: string[] = [];
    for (const check of checks) {
      for (const phone of check.phones) {
        companies.push(check.companyId);
        phones.push(phone);
      }
    }
    const found = new Map<string, (string | null)[]>();
    if (phones.length > 0) {
      const rows: { company_id: string; phone: string; number: string | null }[] = await this.db.query(
        `SELECT o.company_id, o.phone, o.number FROM opt_outs o
         JOIN (SELECT DISTINCT * FROM unnest($1::uuid[], $2::text[]) AS c (company_id, phone)) c ON o.company_id = c.company_id AND o.phone = c.phone`,
        [companies, phones],
      );
      for (const row of rows) {
        const key = `${row.company_id}\u0000${row.phone}`;
        found.set(key, [...(found.get(key) ?? []), row.number]);
      }
    }
    return checks.map((check) => {
      const sender = canonicalNumber(check.sender);
      return new Set(check.phones.filter((phone) => (found.get(`${check.companyId}\u0000${phone}`) ?? []).some((n) => n === null || n === sender)));
    });
  }

  /** The whole list of a company as a test (campaigns: read once, checked per entry in memory). */
  async suppressionOf(companyId: string): Promise<(phone: string, sender: string) => boolean> {
    const rows: { phone: string; number: string | null }[] = await this.db.query(`SELECT phone, number FROM opt_outs WHERE company_id = $1`, [companyId]);
    const numbers = new Map<string, (string | null)[]>();
    for (const row of rows) numbers.set(row.phone, [...(numbers.get(row.phone) ?? []), row.number]);
    return (phone, sender) => {
      const canonical = canonicalNumber(sender);
      return (numbers.get(phone) ?? []).some((n) => n === null || n === canonical);
    };
  }

  /** Whether the company sends OTPs to numbers on its list (its compliance choice; false by default; set by @mp/accounts' OtpOptOutSetting). */
  async otpIgnoresOptOuts(companyId: string): Promise<boolean> {
    const rows: { otp_ignores_opt_outs: boolean }[] = await this.db.query(`SELECT otp_ignores_opt_outs FROM companies WHERE id = $1`, [companyId]);
    return rows[0]?.otp_ignores_opt_outs ?? false;
  }
}

function toView(row: OptOutRow): OptOutView {
  return { phone: row.phone, number: row.number, source: row.source, created_at: new Date(row.created_at).toISOString() };
}
