import { webhookSecretOverlap } from '@mp/accounts-domain';
import { generateWebhookSecret } from '@mp/auth';
import type { DataSource, EntityManager } from 'typeorm';
import { NotFoundError } from './errors';
import { AuditLogRepository, type AuditActor } from './people/audit-log.repository';

/** A company's signing secret as the console shows it. */
export interface WebhookSecretView {
  secret: string;
  /** When a rotation made it; null for the secret the company was created with. */
  rotatedAt: Date | null;
  /** Until when the secret it replaced still signs beside it; null when that one no longer does. */
  previousExpiresAt: Date | null;
}

export interface RotatedWebhookSecret extends WebhookSecretView {
  rotatedAt: Date;
  overlapSeconds: number;
}

interface SecretRow {
  webhook_secret: string;
  webhook_secret_rotated_at: Date | null;
  previous_webhook_secret_expires_at: Date | null;
}

/**
 * Revealing and rotating a company's webhook signing secret (`companies.webhook_secret`), each
 * written to the audit log in its transaction with who did it, never with the secret. A rotation
 * keeps the old secret signing until now + the overlap (`@mp/accounts-domain`'s
 * webhookSecretOverlap); a rotation within another's overlap drops the older secret at once.
 */
export class WebhookSecrets {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  async reveal(companyId: string, actor: AuditActor): Promise<WebhookSecretView> {
    return this.db.transaction(async (manager) => {
      const [row]: SecretRow[] = await manager.query(
        `SELECT webhook_secret, webhook_secret_rotated_at,
           CASE WHEN previous_webhook_secret_expires_at > now() THEN previous_webhook_secret_expires_at END AS previous_webhook_secret_expires_at
         FROM companies WHERE id = $1`,
        [companyId],
      );
      if (!row) throw new NotFoundError('Company not found');
      await this.audit.record(manager, { companyId, actor, action: 'webhook_secret.revealed', details: {} });
      return view(row);
    });
  }

  /** A new current secret; the old one signs beside it for `overlapSeconds` (a day when not given; 0: it stops at once). */
  async rotate(companyId: string, actor: AuditActor, requestedOverlapSeconds?: number): Promise<RotatedWebhookSecret> {
    const overlapSeconds = webhookSecretOverlap(requestedOverlapSeconds);
    return this.db.transaction(async (manager) => {
      const row = await rotateIn(manager, companyId, generateWebhookSecret(), overlapSeconds);
      if (!row) throw new NotFoundError('Company not found');
      const rotated = { ...view(row), rotatedAt: row.webhook_secret_rotated_at ?? new Date(), overlapSeconds };
      await this.audit.record(manager, {
        companyId,
        actor,
        action: 'webhook_secret.rotated',
        details: { overlap_seconds: overlapSeconds, previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null },
      });
      return rotated;
    });
  }
}

/** One statement (a CTE, so that rows come back as rows): the row lock orders concurrent rotations, each replacing the one before it. */
async function rotateIn(manager: EntityManager, companyId: string, secret: string, overlapSeconds: number): Promise<SecretRow | undefined> {
  const rows: SecretRow[] = await manager.query(
    `WITH rotated AS (
     UPDATE companies
     SET previous_webhook_secret = CASE WHEN $3::int > 0 THEN webhook_secret END,
         previous_webhook_secret_expires_at = CASE WHEN $3::int > 0 THEN now() + make_interval(secs => $3::int) END,
         webhook_secret = $2,
         webhook_secret_rotated_at = now()
     WHERE id = $1
     RETURNING webhook_secret, webhook_secret_rotated_at, previous_webhook_secret_expires_at
     ) SELECT * FROM rotated`,
    [companyId, secret, overlapSeconds],
  );
  return rows[0];
}

function view(row: SecretRow): WebhookSecretView {
  return { secret: row.webhook_secret, rotatedAt: row.webhook_secret_rotated_at, previousExpiresAt: row.previous_webhook_secret_expires_at };
}
