import { DataSource, EntityManager } from 'typeorm';
import { ApiKeyEntity } from './entities';

export interface ActiveApiKey {
  id: string;
  companyId: string;
  secretHash: Buffer;
  /** The company is suspended by an operator: the key is right, but the public API refuses it. */
  companySuspended: boolean;
}

interface ActiveKeyRow {
  id: string;
  company_id: string;
  secret_hash: Buffer;
  suspended: boolean;
}

/** A key as its company sees it: never its secret or the secret's hash. */
export interface ApiKeyView {
  id: string;
  key: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export class ApiKeyRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { companyId: string; key: string; secretHash: Buffer }): Promise<ApiKeyEntity> {
    return manager.getRepository(ApiKeyEntity).save(manager.getRepository(ApiKeyEntity).create(row));
  }

  /** The unrevoked key with this public id, if any, and whether its company is suspended. */
  async findActiveByKey(key: string): Promise<ActiveApiKey | null> {
    return this.findActive('k.key = $1', key);
  }

  /** The unrevoked key with this row id: a JWT names its key by id. */
  async findActiveById(id: string): Promise<ActiveApiKey | null> {
    return this.findActive('k.id = $1', id);
  }

  private async findActive(condition: 'k.key = $1' | 'k.id = $1', value: string): Promise<ActiveApiKey | null> {
    const rows: ActiveKeyRow[] = await this.db.query(
      `SELECT k.id, k.company_id, k.secret_hash, c.suspended_at IS NOT NULL AS suspended
       FROM api_keys k JOIN companies c ON c.id = k.company_id
       WHERE ${condition} AND k.revoked_at IS NULL`,
      [value],
    );
    const row = rows[0];
    return row ? { id: row.id, companyId: row.company_id, secretHash: row.secret_hash, companySuspended: row.suspended } : null;
  }

  /** The company's keys, revoked ones too, newest first. */
  async listForCompany(companyId: string): Promise<ApiKeyView[]> {
    return this.db.getRepository(ApiKeyEntity).find({
      select: { id: true, key: true, createdAt: true, lastUsedAt: true, revokedAt: true },
      where: { companyId },
      order: { createdAt: 'DESC', id: 'ASC' },
    });
  }

  /** Marks the key revoked; null when no unrevoked key has that public id. */
  async revoke(key: string, manager: EntityManager = this.db.manager): Promise<{ id: string; companyId: string; revokedAt: Date } | null> {
    const rows: { id: string; company_id: string; revoked_at: Date }[] = await manager.query(
      // A CTE, so that the answer is the rows (TypeORM answers an UPDATE's rows with its count).
      `WITH revoked AS (UPDATE api_keys SET revoked_at = now() WHERE key = $1 AND revoked_at IS NULL RETURNING id, company_id, revoked_at)
       SELECT * FROM revoked`,
      [key],
    );
    return rows.length === 0 ? null : { id: rows[0].id, companyId: rows[0].company_id, revokedAt: rows[0].revoked_at };
  }

  /**
   * Revokes the company's key with this id (once: a revoked key keeps its first time); null when
   * the company has no key with this id.
   */
  async revokeForCompany(manager: EntityManager, companyId: string, id: string): Promise<{ key: string; revokedAt: Date; revokedNow: boolean } | null> {
    const rows: { key: string; revoked_at: Date; revoked_now: boolean }[] = await manager.query(
      `WITH target AS (SELECT id, key, revoked_at FROM api_keys WHERE id = $2 AND company_id = $1 FOR UPDATE),
            revoked AS (UPDATE api_keys k SET revoked_at = now() FROM target WHERE k.id = target.id AND target.revoked_at IS NULL RETURNING k.id, k.revoked_at)
       SELECT target.key, COALESCE(revoked.revoked_at, target.revoked_at) AS revoked_at, revoked.id IS NOT NULL AS revoked_now
       FROM target LEFT JOIN revoked ON revoked.id = target.id`,
      [companyId, id],
    );
    return rows.length === 0 ? null : { key: rows[0].key, revokedAt: rows[0].revoked_at, revokedNow: rows[0].revoked_now };
  }

  /**
   * Records that these keys were just accepted by the public API, to the minute: a key whose
   * time is less than a minute old keeps it, so replicas writing the same key change nothing.
   */
  async markUsed(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.query(
      `UPDATE api_keys SET last_used_at = now()
       WHERE id = ANY($1::uuid[]) AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
      [ids],
    );
  }
}
