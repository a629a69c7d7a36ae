import { blockLookbackStart, blockUntil, OTP_BLOCK } from '@mp/otp-domain';
import type { DataSource } from 'typeorm';

export interface BlockedRecipient {
  appid: string;
  recipient: string;
  blockedUntil: Date;
}

/**
 * The company's recipients blocked at `now`, by the same rule verify and send apply
 * (blockUntil over the wrong codes since blockLookbackStart), latest block end first.
 */
export async function listBlockedRecipients(db: DataSource, companyId: string, now: Date): Promise<BlockedRecipient[]> {
  const rows: { appid: string; recipient: string; times: Date[] }[] = await db.query(
    `SELECT ap.appid, a.recipient, array_agg(a.created_at) AS times
     FROM otp_attempts a JOIN applications ap ON ap.id = a.application_id
     WHERE a.company_id = $1 AND a.outcome = 'invalid_code' AND a.created_at >= $2
     GROUP BY ap.appid, a.recipient
     HAVING count(*) >= $3`,
    [companyId, blockLookbackStart(now), OTP_BLOCK.failures],
  );
  return rows
    .map((row) => ({
      appid: row.appid,
      recipient: row.recipient,
      blockedUntil: blockUntil(
        row.times.map((time) => new Date(time)),
        now,
      ),
    }))
    .filter((row): row is BlockedRecipient => row.blockedUntil !== null)
    .sort((a, b) => b.blockedUntil.getTime() - a.blockedUntil.getTime() || a.recipient.localeCompare(b.recipient));
}
