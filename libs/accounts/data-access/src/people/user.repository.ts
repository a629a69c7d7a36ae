import type { Role } from '@mp/accounts-domain';
import type { DataSource, EntityManager } from 'typeorm';
import { EmailTakenError } from '../errors';

/** A dashboard user as requests see them: with their company's name (null for an operator). */
export interface UserRecord {
  id: string;
  email: string;
  role: Role;
  companyId: string | null;
  companyName: string | null;
  /** An operator suspended the user's company: they may read, but change nothing. */
  companySuspended: boolean;
  createdAt: Date;
}

interface UserRow {
  id: string;
  email: string;
  role: Role;
  company_id: string | null;
  company_name: string | null;
  company_suspended: boolean;
  created_at: Date;
}

/** The columns of a UserRecord, from `users u LEFT JOIN companies c`. */
export const USER_COLUMNS = `u.id, u.email, u.role, u.company_id, c.name AS company_name, c.suspended_at IS NOT NULL AS company_suspended, u.created_at`;

export function userRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    companyId: row.company_id,
    companyName: row.company_name,
    companySuspended: row.company_suspended,
    createdAt: row.created_at,
  };
}

const UNIQUE_VIOLATION = '23505';

/** The `users` table: removed members keep their row (`removed_at`), so the audit log still names them. */
export class UserRepository {
  constructor(private readonly db: DataSource) {}

  /** Throws EmailTakenError when an account that is not removed has this email. */
  async insert(manager: EntityManager, row: { email: string; passwordHash: string; role: Role; companyId: string | null }): Promise<UserRecord> {
    try {
      const [inserted]: UserRow[] = await manager.query(
        `WITH u AS (
           INSERT INTO users (email, password_hash, role, company_id) VALUES ($1, $2, $3, $4)
           RETURNING id, email, role, company_id, created_at)
         SELECT ${USER_COLUMNS} FROM u LEFT JOIN companies c ON c.id = u.company_id`,
        [row.email, row.passwordHash, row.role, row.companyId],
      );
      return userRecord(inserted);
    } catch (error) {
      if ((error as { code?: string }).code === UNIQUE_VIOLATION) throw new EmailTakenError(row.email);
      throw error;
    }
  }

  /** The account (not removed) with this email, and its password hash, for a sign-in. */
  async findForSignIn(email: string): Promise<{ user: UserRecord; passwordHash: string } | null> {
    const [row]: (UserRow & { password_hash: string })[] = await this.db.query(
      `SELECT ${USER_COLUMNS}, u.password_hash FROM users u LEFT JOIN companies c ON c.id = u.company_id
       WHERE u.email = $1 AND u.removed_at IS NULL`,
      [email],
    );
    return row ? { user: userRecord(row), passwordHash: row.password_hash } : null;
  }

  async emailTaken(manager: EntityManager, email: string): Promise<boolean> {
    const rows: unknown[] = await manager.query(`SELECT 1 FROM users WHERE email = $1 AND removed_at IS NULL`, [email]);
    return rows.length > 0;
  }

  /** The company's members (not removed), oldest first. */
  async listMembers(companyId: string): Promise<UserRecord[]> {
    const rows: UserRow[] = await this.db.query(
      `SELECT ${USER_COLUMNS} FROM users u JOIN companies c ON c.id = u.company_id
       WHERE u.company_id = $1 AND u.removed_at IS NULL ORDER BY u.created_at, u.id`,
      [companyId],
    );
    return rows.map(userRecord);
  }

  /** The company's members (not removed), their rows locked until the transaction ends: who they are and their roles. */
  async lockMembers(manager: EntityManager, companyId: string): Promise<{ id: string; email: string; role: Role }[]> {
    return manager.query(`SELECT id, email, role FROM users WHERE company_id = $1 AND removed_at IS NULL ORDER BY id FOR UPDATE`, [companyId]);
  }

  async markRemoved(manager: EntityManager, id: string): Promise<void> {
    await manager.query(`UPDATE users SET removed_at = now() WHERE id = $1 AND removed_at IS NULL`, [id]);
  }
}
