import type { DataSource } from 'typeorm';
import { NotFoundError } from '../errors';
import type { AuditActor, AuditLogRepository } from '../people/audit-log.repository';

/** A company's messaging settings, which its API clients and the operators change. */
export interface MessagingSettingsView {
  /** Receives the status events of the company's messages sent without a webhook_url; null: none. */
  statusCallbackUrl: string | null;
  /** Receives message.received and contact.opted_out / contact.opted_in; null: none. */
  inboundWebhookUrl: string | null;
  /** Whether its OTPs go to numbers on its suppression list: the company's own compliance choice. */
  otpIgnoresOptOuts: boolean;
  /** What STOP (and the other opt-out keywords), START and HELP are answered with; null: the CTIA wording. */
  optOutReply: string | null;
  optInReply: string | null;
  helpReply: string | null;
}

/** The settings a change may give; those absent stay as they are, a null text goes back to its default. */
export type MessagingSettingsChange = Partial<MessagingSettingsView>;

const COLUMNS = {
  statusCallbackUrl: 'status_callback_url',
  inboundWebhookUrl: 'inbound_webhook_url',
  otpIgnoresOptOuts: 'otp_ignores_opt_outs',
  optOutReply: 'opt_out_reply',
  optInReply: 'opt_in_reply',
  helpReply: 'help_reply',
} as const satisfies Record<keyof MessagingSettingsView, string>;

type Column = (typeof COLUMNS)[keyof MessagingSettingsView];
type Row = Record<Column, string | boolean | null>;

/** The longest reply text a company may set (the column's check). */
export const MAX_KEYWORD_REPLY_LENGTH = 320;

/** A keyword reply as stored (trimmed), or null when it is empty or longer than MAX_KEYWORD_REPLY_LENGTH characters. */
export function keywordReplyText(text: unknown): string | null {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  return trimmed.length > 0 && [...trimmed].length <= MAX_KEYWORD_REPLY_LENGTH ? trimmed : null;
}

/** The settings as the API and the admin tool show them. */
export function messagingSettingsJson(view: MessagingSettingsView) {
  return {
    status_callback_url: view.statusCallbackUrl,
    inbound_webhook_url: view.inboundWebhookUrl,
    otp_ignores_opt_outs: view.otpIgnoresOptOuts,
    opt_out_reply: view.optOutReply,
    opt_in_reply: view.optInReply,
    help_reply: view.helpReply,
  };
}

const SELECTED = Object.values(COLUMNS).join(', ');

/**
 * A company's messaging settings (columns of `companies`): read, and changed with one audit entry
 * (`settings.changed`, `{ messaging: { <column>: value } }`) in the same transaction. The caller
 * checks addresses (the webhook address guard) and texts (MAX_KEYWORD_REPLY_LENGTH).
 */
export class MessagingSettings {
  constructor(
    private readonly db: DataSource,
    private readonly audit: AuditLogRepository,
  ) {}

  /** null when no company has this id. */
  async get(companyId: string): Promise<MessagingSettingsView | null> {
    const rows: Row[] = await this.db.query(`SELECT ${SELECTED} FROM companies WHERE id = $1`, [companyId]);
    return rows.length === 0 ? null : viewOf(rows[0]);
  }

  /** Changes the settings given, all or none; NotFoundError when no company has this id. */
  async update(companyId: string, change: MessagingSettingsChange, actor: AuditActor = null): Promise<MessagingSettingsView> {
    const given = (Object.keys(COLUMNS) as (keyof MessagingSettingsView)[]).filter((key) => change[key] !== undefined);
    if (given.length === 0) {
      const view = await this.get(companyId);
      if (!view) throw new NotFoundError(`no company ${companyId}`);
      return view;
    }
    const assignments = given.map((key, i) => `${COLUMNS[key]} = $${i + 2}`).join(', ');
    const values = given.map((key) => change[key]);
    return this.db.transaction(async (manager) => {
      const rows: Row[] = await manager.query(
        `WITH changed AS (UPDATE companies SET ${assignments} WHERE id = $1 RETURNING ${SELECTED}) SELECT * FROM changed`,
        [companyId, ...values],
      );
      if (rows.length === 0) throw new NotFoundError(`no company ${companyId}`);
      const details = Object.fromEntries(given.map((key) => [COLUMNS[key], change[key]]));
      await this.audit.record(manager, { companyId, actor, action: 'settings.changed', details: { messaging: details } });
      return viewOf(rows[0]);
    });
  }

  async setStatusCallbackUrl(companyId: string, url: string | null, actor: AuditActor = null): Promise<MessagingSettingsView> {
    return this.update(companyId, { statusCallbackUrl: url }, actor);
  }

  /** The address of message.received (docs/decisions/0050-inbound-messages.md); null: none. */
  async setInboundWebhookUrl(companyId: string, url: string | null, actor: AuditActor = null): Promise<MessagingSettingsView> {
    return this.update(companyId, { inboundWebhookUrl: url }, actor);
  }
}

function viewOf(row: Row): MessagingSettingsView {
  const text = (column: Column) => row[column] as string | null;
  return {
    statusCallbackUrl: text('status_callback_url'),
    inboundWebhookUrl: text('inbound_webhook_url'),
    otpIgnoresOptOuts: row.otp_ignores_opt_outs === true,
    optOutReply: text('opt_out_reply'),
    optInReply: text('opt_in_reply'),
    helpReply: text('help_reply'),
  };
}
