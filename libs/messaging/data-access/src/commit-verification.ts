import { parseMoney, type Money } from '@mp/billing-domain';
import { QueryFailedError, type DataSource } from 'typeorm';

/**
 * A statement whose connection was lost while it ran (the server shut down or crashed, the socket
 * was cut) may have committed before the answer was lost: the fault test that restarts
 * PostgreSQL during sends saw a send answered 503, tried again by its client, stored and charged
 * twice. A connection that could not be made at all, or an error PostgreSQL reported, is no such
 * doubt: nothing ran, or it was rolled back.
 */
const LOST_MID_STATEMENT_CODES = new Set(['ECONNRESET', 'EPIPE', '57P01', '57P02', '08006', '08003', '08000']);
const LOST_MID_STATEMENT_MESSAGES = ['Connection terminated', 'terminating connection'];

export function isOutcomeUnknown(error: unknown): boolean {
  const cause = (error instanceof QueryFailedError ? error.driverError : error) as { code?: unknown; message?: unknown } | null;
  if (!cause) return false;
  if (typeof cause.code === 'string' && LOST_MID_STATEMENT_CODES.has(cause.code)) return true;
  const message = String(cause.message ?? '');
  return LOST_MID_STATEMENT_MESSAGES.some((text) => message.includes(text));
}

export interface VerificationOptions {
  /** How long to keep asking while the database does not answer (well under a client's timeout). */
  timeoutMs: number;
  pollMs: number;
}

/** Long enough for a PostgreSQL restart (the fault test's takes about 7 s), short of a 15 s client timeout. */
export const COMMIT_VERIFICATION: VerificationOptions = { timeoutMs: 10_000, pollMs: 250 };

/**
 * Asks the database, until it answers or timeoutMs has passed, whether the charge with this
 * reference was committed: its balance after the charge if it was, null if it was not, undefined
 * if the database did not answer in time (the outcome is still unknown).
 */
export async function committedCharge(
  db: DataSource,
  charge: { companyId: string; reference: string },
  options: VerificationOptions = COMMIT_VERIFICATION,
): Promise<Money | null | undefined> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    try {
      const rows = (await db.query(
        `SELECT balance_after::text AS balance_after FROM ledger_entries WHERE company_id = $1 AND kind = 'charge' AND reference = $2`,
        [charge.companyId, charge.reference],
      )) as { balance_after: string }[];
      return rows.length > 0 ? parseMoney(rows[0].balance_after) : null;
    } catch {
      if (Date.now() + options.pollMs > deadline) return undefined;
      await new Promise((wake) => setTimeout(wake, options.pollMs));
    }
  }
}
