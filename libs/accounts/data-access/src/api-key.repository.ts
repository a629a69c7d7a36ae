import { DataSource, EntityManager, IsNull } from 'typeorm';
import { ApiKeyEntity } from './entities';

export interface ActiveApiKey {
  id: string;
  companyId: string;
  secretHash: Buffer;
}

export class ApiKeyRepository {
  constructor(private readonly db: DataSource) {}

  async insert(manager: EntityManager, row: { companyId: string; key: string; secretHash: Buffer }): Promise<ApiKeyEntity> {
    return manager.getRepository(ApiKeyEntity).save(manager.getRepository(ApiKeyEntity).create(row));
  }

  /** The unrevoked key with this public id, if any. */
  async findActiveByKey(key: string): Promise<ActiveApiKey | null> {
    return this.db.getRepository(ApiKeyEntity).findOne({
      select: { id: true, companyId: true, secretHash: true },
      where: { key, revokedAt: IsNull() },
    });
  }

  /** The unrevoked key with this row id: a JWT names its key by id. */
  async findActiveById(id: string): Promise<ActiveApiKey | null> {
    return this.db.getRepository(ApiKeyEntity).findOne({
      select: { id: true, companyId: true, secretHash: true },
      where: { id, revokedAt: IsNull() },
    });
  }

  /** Marks the key revoked; false when no unrevoked key has that public id. */
  async revoke(key: string): Promise<boolean> {
    const result = await this.db.getRepository(ApiKeyEntity).update({ key, revokedAt: IsNull() }, { revokedAt: () => 'now()' });
    return (result.affected ?? 0) > 0;
  }
}
