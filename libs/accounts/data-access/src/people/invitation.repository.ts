import type { CompanyRole } from '@mp/accounts-domain';
import type { DataSource, EntityManager } from 'typeorm';

export interface PendingInvitation {
  id: string;
  email: string;
  role: CompanyRole;
  expiresAt: Date;
}

export interface LockedInvitation extends PendingInvitation {
  companyId: string;
  acceptedAt: Date | null;
}

/** `invitations`: a one-time link to join a company, found by the SHA-256 of its token. */
export class InvitationRepository {
  constructor(private readonly db: DataSource) {}

  async insert(
    manager: EntityManager,
    row: { companyId: string; email: string; role: CompanyRole; tokenHash: Buffer; invitedBy: string | null; expiresAt: Date },
  ): Promise<PendingInvitation> {
    const [inserted] = await manager.query(
      `INSERT INTO invitations (company_id, email, role, token_hash, invited_by, expires_at) VALUES ($1, $2, $3, $4, $5, $6)
       RETURNING id, email, role, expires_at`,
      [row.companyId, row.email, row.role, row.tokenHash, row.invitedBy, row.expiresAt],
    );
    return { id: inserted.id, email: inserted.email, role: inserted.role, expiresAt: inserted.expires_at };
  }

  /** The company's invitations not accepted and not expired at `now`, newest first. */
  async listPending(companyId: string, now: Date): Promise<PendingInvitation[]> {
    const rows: { id: string; email: string; role: CompanyRole; expires_at: Date }[] = await this.db.query(
      `SELECT id, email, role, expires_at FROM invitations
       WHERE company_id = $1 AND accepted_at IS NULL AND expires_at > $2 ORDER BY created_at DESC, id`,
      [companyId, now],
    );
    return rows.map((row) => ({ id: row.id, email: row.email, role: row.role, expiresAt: row.expires_at }));
  }

  /** The invitation with this token hash, locked until the transaction ends (one acceptance wins). */
  async lockByTokenHash(manager: EntityManager, tokenHash: Buffer): Promise<LockedInvitation | null> {
    const [row] = await manager.query(`SELECT id, company_id, email, role, expires_at, accepted_at FROM invitations WHERE token_hash = $1 FOR UPDATE`, [
      tokenHash,
    ]);
    if (!row) return null;
    return { id: row.id, companyId: row.company_id, email: row.email, role: row.role, expiresAt: row.expires_at, acceptedAt: row.accepted_at };
  }

  /** Deletes the company's invitation if it is not accepted yet (its link then names nothing); what it was, or null. */
  async deletePending(manager: EntityManager, companyId: string, id: string): Promise<Pick<PendingInvitation, 'email' | 'role'> | null> {
    const [rows]: [{ email: string; role: CompanyRole }[]] = await manager.query(
      `DELETE FROM invitations WHERE id = $1 AND company_id = $2 AND accepted_at IS NULL RETURNING email, role`,
      [id, companyId],
    );
    return rows[0] ?? null;
  }

  async markAccepted(manager: EntityManager, id: string, userId: string, at: Date): Promise<void> {
    await manager.query(`UPDATE invitations SET accepted_at = $3, accepted_by = $2 WHERE id = $1`, [id, userId, at]);
  }
}
