import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { ACCOUNTS_ENTITIES, accountsRepositories, AccountsService, AuditLogRepository, NotFoundError, WebhookSecrets } from './index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');

describe('webhook secrets: reveal and rotation (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let secrets: WebhookSecrets;

  const stored = async (companyId: string) =>
    (
      await db.query(
        `SELECT webhook_secret, previous_webhook_secret, previous_webhook_secret_expires_at, webhook_secret_rotated_at FROM companies WHERE id = $1`,
        [companyId],
      )
    )[0] as {
      webhook_secret: string;
      previous_webhook_secret: string | null;
      previous_webhook_secret_expires_at: Date | null;
      webhook_secret_rotated_at: Date | null;
    };
  const auditOf = async (companyId: string) =>
    (await db.query(`SELECT action, actor_id, details FROM audit_entries WHERE company_id = $1 AND action LIKE 'webhook_secret.%' ORDER BY id`, [
      companyId,
    ])) as {
      action: string;
      actor_id: string | null;
      details: Record<string, unknown>;
    }[];
  const newCompany = async () => accounts.createCompany({ name: 'Hooks', balance: '0' });
  const newUser = async (companyId: string) =>
    (
      await db.query(`INSERT INTO users (email, password_hash, role, company_id) VALUES ($1, 'h', 'owner', $2) RETURNING id`, [
        `o-${companyId}@example.com`,
        companyId,
      ])
    )[0].id as string;

  beforeAll(async () => {
    db = await openTestDataSource('webhook-secrets-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    secrets = new WebhookSecrets(db, new AuditLogRepository(db));
  });
  afterAll(() => db.destroy());

  it('reveals the current secret, and records who revealed it without the secret', async () => {
    const company = await newCompany();
    const owner = await newUser(company.company_id);
    expect(await secrets.reveal(company.company_id, owner)).toEqual({ secret: company.webhook_secret, rotatedAt: null, previousExpiresAt: null });
    const audit = await auditOf(company.company_id);
    expect(audit).toEqual([{ action: 'webhook_secret.revealed', actor_id: owner, details: {} }]);
    expect(JSON.stringify(audit)).not.toContain(company.webhook_secret.slice(6));
  });

  it('rotates: a new current secret, the old one kept until now + the overlap (a day by default), recorded without either secret', async () => {
    const company = await newCompany();
    const owner = await newUser(company.company_id);
    const before = Date.now();
    const rotated = await secrets.rotate(company.company_id, owner);
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotated.secret).not.toBe(company.webhook_secret);
    expect(rotated.overlapSeconds).toBe(86_400);
    const row = await stored(company.company_id);
    expect(row.webhook_secret).toBe(rotated.secret);
    expect(row.previous_webhook_secret).toBe(company.webhook_secret);
    expect(row.previous_webhook_secret_expires_at?.getTime()).toBe(rotated.previousExpiresAt?.getTime());
    expect(Number(row.previous_webhook_secret_expires_at?.getTime()) - Number(row.webhook_secret_rotated_at?.getTime())).toBe(86_400_000);
    expect(Number(row.webhook_secret_rotated_at?.getTime())).toBeGreaterThanOrEqual(before - 1000);
    const audit = await auditOf(company.company_id);
    expect(audit).toEqual([
      {
        action: 'webhook_secret.rotated',
        actor_id: owner,
        details: { overlap_seconds: 86_400, previous_expires_at: rotated.previousExpiresAt?.toISOString() },
      },
    ]);
    for (const secret of [company.webhook_secret, rotated.secret]) expect(JSON.stringify(audit)).not.toContain(secret.slice(6));
    expect(await secrets.reveal(company.company_id, owner)).toEqual({
      secret: rotated.secret,
      rotatedAt: row.webhook_secret_rotated_at,
      previousExpiresAt: row.previous_webhook_secret_expires_at,
    });
  });

  it('drops the old secret at once with no overlap, and the older one when rotating within an overlap', async () => {
    const company = await newCompany();
    const first = await secrets.rotate(company.company_id, null, 3600);
    const second = await secrets.rotate(company.company_id, null, 60);
    expect(await stored(company.company_id)).toMatchObject({ webhook_secret: second.secret, previous_webhook_secret: first.secret });
    const third = await secrets.rotate(company.company_id, null, 0);
    expect(third.previousExpiresAt).toBeNull();
    expect(await stored(company.company_id)).toMatchObject({
      webhook_secret: third.secret,
      previous_webhook_secret: null,
      previous_webhook_secret_expires_at: null,
    });
  });

  it('shows no overlap in a reveal once it has ended', async () => {
    const company = await newCompany();
    await secrets.rotate(company.company_id, null, 3600);
    await db.query(`UPDATE companies SET previous_webhook_secret_expires_at = now() - interval '1 second' WHERE id = $1`, [company.company_id]);
    expect((await secrets.reveal(company.company_id, null)).previousExpiresAt).toBeNull();
  });

  it('keeps every concurrent rotation: each replaces the one before it', async () => {
    const company = await newCompany();
    const rotations = await Promise.all(Array.from({ length: 5 }, () => secrets.rotate(company.company_id, null, 60)));
    const row = await stored(company.company_id);
    const made = rotations.map((rotation) => rotation.secret);
    expect(made).toContain(row.webhook_secret);
    expect([company.webhook_secret, ...made]).toContain(row.previous_webhook_secret);
    expect(row.previous_webhook_secret).not.toBe(row.webhook_secret);
    expect(await auditOf(company.company_id)).toHaveLength(5);
  });

  it('refuses an overlap out of bounds and a company that does not exist, changing nothing', async () => {
    const company = await newCompany();
    await expect(secrets.rotate(company.company_id, null, 604_801)).rejects.toThrow('overlap_seconds must be an integer from 0 to 604800');
    expect((await stored(company.company_id)).webhook_secret).toBe(company.webhook_secret);
    await expect(secrets.rotate('6f1c2a56-0000-4000-8000-000000000009', null)).rejects.toThrow(NotFoundError);
    await expect(secrets.reveal('6f1c2a56-0000-4000-8000-000000000009', null)).rejects.toThrow(NotFoundError);
    expect(await auditOf(company.company_id)).toEqual([]);
  });
});
