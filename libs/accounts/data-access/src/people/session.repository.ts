import type { DataSource, EntityManager } from 'typeorm';
import { USER_COLUMNS, userRecord, type UserRecord } from './user.repository';

export interface StoredSession {
  id: string;
  createdAt: Date;
  lastSeenAt: Date;
  user: UserRecord;
}

/** `user_sessions`: one row per signed-in browser, found by the SHA-256 of its token (never the token). */
export class SessionRepository {
  constructor(private readonly db: DataSource) {}

  async insert(row: { userId: string; tokenHash: Buffer; at: Date }): Promise<void> {
    await this.db.query(`INSERT INTO user_sessions (user_id, token_hash, created_at, last_seen_at) VALUES ($1, $2, $3, $3)`, [
      row.userId,
      row.tokenHash,
      row.at,
    ]);
  }

  /** The session with this token hash, of a user not removed, with the user. */
  async findByTokenHash(tokenHash: Buffer): Promise<StoredSession | null> {
    const [row] = await this.db.query(
      `SELECT s.id AS session_id, s.created_at AS session_created_at, s.last_seen_at, ${USER_COLUMNS}
       FROM user_sessions s JOIN users u ON u.id = s.user_id LEFT JOIN companies c ON c.id = u.company_id
       WHERE s.token_hash = $1 AND u.removed_at IS NULL`,
      [tokenHash],
    );
    if (!row) return null;
    return { id: row.session_id, createdAt: row.session_created_at, lastSeenAt: row.last_seen_at, user: userRecord(row) };
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.db.query(`UPDATE user_sessions SET last_seen_at = $2 WHERE id = $1 AND last_seen_at < $2`, [id, at]);
  }

  async delete(id: string): Promise<void> {
    await this.db.query(`DELETE FROM user_sessions WHERE id = $1`, [id]);
  }

  /** Ends every session of the user; how many there were. */
  async deleteForUser(userId: string, manager: EntityManager = this.db.manager): Promise<number> {
    // A CTE, so that the answer is the rows (TypeORM answers a DELETE's rows with its count).
    const [{ ended }] = await manager.query(
      `WITH ended AS (DELETE FROM user_sessions WHERE user_id = $1 RETURNING id) SELECT count(*)::int AS ended FROM ended`,
      [userId],
    );
    return ended as number;
  }

  /** Forgets the user's sessions that timed out (signed in at or before `signedInBy`, or idle since `idleSince`). */
  async deleteTimedOut(userId: string, { signedInBy, idleSince }: { signedInBy: Date; idleSince: Date }): Promise<void> {
    await this.db.query(`DELETE FROM user_sessions WHERE user_id = $1 AND (created_at <= $2 OR last_seen_at <= $3)`, [userId, signedInBy, idleSince]);
  }
}
