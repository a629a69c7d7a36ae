import type { DataSource } from 'typeorm';
import { NotFoundError } from './errors';
import type { AuditActor, AuditLogRepository } from './people/audit-log.repository';

/**
 * `companies.otp_ignores_opt_outs`: whether the company's OTPs go to numbers on its suppression
 * list. False by default, so OTPs follow the list like every other send. Turning it on is the
 * company's own compliance choice (a one-time code the contact asked for is often judged
 * transactional, but whether that holds for its traffic and its countries is for the company to
 * decide). Changed with an audit entry (`settings.changed`, `{ messaging: { otp_ignores_opt_outs } }`).
 */
export class OtpOptOutSetting {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  /** null when no company has this id. */
  async get(companyId: string): Promise<boolean | null> {
    const rows: { otp_ignores_opt_outs: boolean }[] = await this.db.query(`SELECT otp_ignores_opt_outs FROM companies WHERE id = $1`, [companyId]);
    return rows.length === 0 ? null : rows[0].otp_ignores_opt_outs;
  }

  async set(companyId: string, ignore: boolean, actor: AuditActor = null): Promise<boolean> {
    return this.db.transaction(async (manager) => {
      const [{ changed }]: { changed: number }[] = await manager.query(
        `WITH changed AS (UPDATE companies SET otp_ignores_opt_outs = $2 WHERE id = $1 RETURNING id) SELECT count(*)::int AS changed FROM changed`,
        [companyId, ignore],
      );
      if (changed === 0) throw new NotFoundError(`no company ${companyId}`);
      await this.audit.record(manager, { companyId, actor, action: 'settings.changed', details: { messaging: { otp_ignores_opt_outs: ignore } } });
      return ignore;
    });
  }
}
