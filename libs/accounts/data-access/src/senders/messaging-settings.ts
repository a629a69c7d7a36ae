import type { DataSource } from 'typeorm';
import { NotFoundError } from '../errors';
import type { AuditActor, AuditLogRepository } from '../people/audit-log.repository';

/** A company's messaging settings, which its API clients and the operators change. */
export interface MessagingSettingsView {
  /** Receives the status events of the company's messages sent without a webhook_url; null: none. */
  statusCallbackUrl: string | null;
  /** Receives message.received, for each message a handset sends to the company's numbers; null: none. */
  inboundWebhookUrl: string | null;
}

/**
 * The `companies.status_callback_url` setting: read, and changed with an audit entry
 * (`settings.changed`, `{ messaging: { status_callback_url } }`) in the same transaction. The
 * caller checks the address (the webhook address guard), as it does a send's webhook_url.
 */
export class MessagingSettings {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  /** null when no company has this id. */
  async get(companyId: string): Promise<MessagingSettingsView | null> {
    const rows: { status_callback_url: string | null; inbound_webhook_url: string | null }[] = await this.db.query(
      `SELECT status_callback_url, inbound_webhook_url FROM companies WHERE id = $1`,
      [companyId],
    );
    if (rows.length === 0) return null;
    return { statusCallbackUrl: rows[0].status_callback_url, inboundWebhookUrl: rows[0].inbound_webhook_url };
  }

  async setStatusCallbackUrl(companyId: string, url: string | null, actor: AuditActor = null): Promise<MessagingSettingsView> {
    return this.set(companyId, 'status_callback_url', url, actor);
  }

  /** The address of message.received (docs/decisions/0050-inbound-messages.md); null: none. */
  async setInboundWebhookUrl(companyId: string, url: string | null, actor: AuditActor = null): Promise<MessagingSettingsView> {
    return this.set(companyId, 'inbound_webhook_url', url, actor);
  }

  private async set(
    companyId: string,
    column: 'status_callback_url' | 'inbound_webhook_url',
    url: string | null,
    actor: AuditActor,
  ): Promise<MessagingSettingsView> {
    return this.db.transaction(async (manager) => {
      const rows: { status_callback_url: string | null; inbound_webhook_url: string | null }[] = await manager.query(
        `WITH changed AS (UPDATE companies SET ${column} = $2 WHERE id = $1 RETURNING status_callback_url, inbound_webhook_url) SELECT * FROM changed`,
        [companyId, url],
      );
      if (rows.length === 0) throw new NotFoundError(`no company ${companyId}`);
      await this.audit.record(manager, { companyId, actor, action: 'settings.changed', details: { messaging: { [column]: url } } });
      return { statusCallbackUrl: rows[0].status_callback_url, inboundWebhookUrl: rows[0].inbound_webhook_url };
    });
  }
}
