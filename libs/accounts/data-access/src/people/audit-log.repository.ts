import type { DataSource, EntityManager } from 'typeorm';

/** Who made a change: a dashboard user's id, or null for the operators' command-line tool. */
export type AuditActor = string | null;

/** What the audit log records: `<subject>.<verb>`. */
export type AuditAction =
  | 'company.created'
  | 'company.suspended'
  | 'company.unsuspended'
  | 'application.created'
  | 'template.created'
  | 'template.text_set'
  | 'template.text_removed'
  | 'template.deleted'
  | 'settings.changed'
  | 'key.created'
  | 'key.revoked'
  | 'balance.topped_up'
  | 'member.created'
  | 'member.invited'
  | 'invitation.cancelled'
  | 'member.joined'
  | 'member.removed'
  | 'operator.created'
  | 'webhook_secret.revealed'
  | 'webhook_secret.rotated'
  | 'price.set'
  | 'prices.imported'
  | 'sender.assigned'
  | 'sender.unassigned';

/** Every action the log records, for a reader that filters by one. */
export const AUDIT_ACTIONS: readonly AuditAction[] = [
  'company.created',
  'company.suspended',
  'company.unsuspended',
  'application.created',
  'template.created',
  'template.text_set',
  'template.text_removed',
  'template.deleted',
  'settings.changed',
  'key.created',
  'key.revoked',
  'balance.topped_up',
  'member.created',
  'member.invited',
  'invitation.cancelled',
  'member.joined',
  'member.removed',
  'operator.created',
  'webhook_secret.revealed',
  'webhook_secret.rotated',
  'price.set',
  'prices.imported',
  'sender.assigned',
  'sender.unassigned',
];

export function isAuditAction(text: string): text is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(text);
}

export interface AuditRecord {
  /** The company changed; null for what belongs to no company (an operator's account). */
  companyId: string | null;
  actor: AuditActor;
  action: AuditAction;
  details: Record<string, unknown>;
}

export interface AuditEntry {
  id: string;
  at: Date;
  actor: { id: string; email: string } | null;
  action: string;
  details: Record<string, unknown>;
}

export interface AuditPage {
  items: AuditEntry[];
  /** Give it back as `before` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

interface AuditRow {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_email: string | null;
  action: string;
  details: Record<string, unknown>;
}

/**
 * The append-only log of every change of a company's keys, members, settings and balance
 * (`audit_entries`; a trigger refuses UPDATE, DELETE and TRUNCATE). Each entry is written in
 * the transaction of the change it records, so one never exists without the other.
 */
export class AuditLogRepository {
  constructor(private readonly db: DataSource) {}

  async record(manager: EntityManager, entry: AuditRecord): Promise<void> {
    await manager.query(`INSERT INTO audit_entries (company_id, actor_id, action, details) VALUES ($1, $2, $3, $4::jsonb)`, [
      entry.companyId,
      entry.actor,
      entry.action,
      JSON.stringify(entry.details),
    ]);
  }

  /**
   * The company's entries (null: the platform's own, which belong to no company), newest first,
   * `limit` a page, older than the entry `before` names (a cursor of an earlier page), only
   * `action` ones if it is given.
   */
  async list(companyId: string | null, { before, limit, action }: { before?: string; limit: number; action?: AuditAction }): Promise<AuditPage> {
    // Two texts rather than IS NOT DISTINCT FROM, which the (company_id, id) index cannot serve.
    const ofCompany = companyId === null ? '$1::uuid IS NULL AND a.company_id IS NULL' : 'a.company_id = $1::uuid';
    const rows: AuditRow[] = await this.db.query(
      `SELECT a.id::text AS id, a.at, a.actor_id, u.email AS actor_email, a.action, a.details
       FROM audit_entries a LEFT JOIN users u ON u.id = a.actor_id
       WHERE ${ofCompany} AND ($2::bigint IS NULL OR a.id < $2::bigint) AND ($4::text IS NULL OR a.action = $4)
       ORDER BY a.id DESC LIMIT $3`,
      [companyId, before ?? null, limit + 1, action ?? null],
    );
    const items = rows.slice(0, limit).map((row) => ({
      id: row.id,
      at: row.at,
      actor: row.actor_id === null ? null : { id: row.actor_id, email: row.actor_email ?? '' },
      action: row.action,
      details: row.details,
    }));
    return { items, nextCursor: rows.length > limit ? items[items.length - 1].id : null };
  }
}
