// What an audit entry says in words: its action as a short label, its details as one readable
// line ("Key mpk_… revoked", "Top-up of 25.0000"). Kept apart from the page so it is unit tested.
import type { AuditEntry } from '../../api/audit';

/** Every action the log records (GET /dashboard/api/audit refuses any other as a filter), with its label. */
export const AUDIT_ACTION_WORDS = {
  'key.created': 'API key created',
  'key.revoked': 'API key revoked',
  'member.invited': 'Member invited',
  'invitation.cancelled': 'Invitation cancelled',
  'member.joined': 'Member joined',
  'member.created': 'Member created',
  'member.removed': 'Member removed',
  'balance.topped_up': 'Balance topped up',
  'settings.changed': 'Settings changed',
  'application.created': 'Application created',
  'template.created': 'Template created',
  'template.text_set': 'Template text set',
  'template.text_removed': 'Template text removed',
  'template.deleted': 'Template deleted',
  'webhook_secret.revealed': 'Webhook secret revealed',
  'webhook_secret.rotated': 'Webhook secret rotated',
  'company.created': 'Company created',
  'company.suspended': 'Company suspended',
  'company.unsuspended': 'Company unsuspended',
  'operator.created': 'Operator created',
  'price.set': 'Price set',
  'prices.imported': 'Prices imported',
  'sender.assigned': 'Number or sender id assigned',
  'sender.unassigned': 'Number or sender id unassigned',
} as const;

export type AuditActionName = keyof typeof AUDIT_ACTION_WORDS;
export const AUDIT_ACTIONS = Object.keys(AUDIT_ACTION_WORDS) as AuditActionName[];

export function isAuditActionName(text: unknown): text is AuditActionName {
  return typeof text === 'string' && Object.hasOwn(AUDIT_ACTION_WORDS, text);
}

/** The label of an action; one the console does not know yet is shown as it is. */
export function actionWords(action: string): string {
  return isAuditActionName(action) ? AUDIT_ACTION_WORDS[action] : action;
}

/** Who made the change: their email, or the operators' command-line tool. */
export function actorWords(entry: AuditEntry): string {
  return entry.actor === null ? 'Admin tool' : entry.actor.email;
}

const text = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
/** The API's amounts: JSON numbers with at most 4 decimals (exact in a double), or exact decimal texts. */
const amount = (value: unknown): string => (typeof value === 'number' ? value.toFixed(4) : text(value));
const who = (details: Record<string, unknown>) => `${text(details['email'])}${details['role'] ? ` (${text(details['role'])})` : ''}`;
const template = (details: Record<string, unknown>) => `Template ${text(details['template_id'])}`;

/** `name 3, sender_id MyShop` of a change's fields. */
function fields(changes: unknown): string {
  if (typeof changes !== 'object' || changes === null) return '';
  return Object.entries(changes)
    .map(([name, value]) => `${name.replaceAll('_', ' ')} ${value === null ? 'none' : typeof value === 'object' ? JSON.stringify(value) : String(value)}`)
    .join(', ');
}

function settingsWords(details: Record<string, unknown>): string {
  if (details['application'] !== undefined) return `Application ${text(details['appid'])}: ${fields(details['application'])}`;
  if (details['billing'] !== undefined) return `Billing: ${fields(details['billing'])}`;
  return `Company: ${fields(details['company'])}`;
}

/** The company's currency, when the page knows it (an entry does not say it). */
const inCurrency = (value: unknown, currency: string | undefined) => (currency ? `${amount(value)} ${currency}` : amount(value));

function topUpWords(details: Record<string, unknown>, currency: string | undefined): string {
  const reference = details['reference'] ? `, reference ${text(details['reference'])}` : '';
  return `Top-up of ${inCurrency(details['amount'], currency)} (balance ${inCurrency(details['balance'], currency)})${reference}`;
}

function priceWords(details: Record<string, unknown>): string {
  const previous = details['previous_price'] === null || details['previous_price'] === undefined ? 'a new price' : `was ${amount(details['previous_price'])}`;
  return `Price of ${text(details['prefix'])} ${text(details['route'])} set to ${amount(details['price'])} (${previous})`;
}

const SUMMARIES: Record<AuditActionName, (details: Record<string, unknown>, currency: string | undefined) => string> = {
  'key.created': (d) => `Key ${text(d['api_key'])} created`,
  'key.revoked': (d) => `Key ${text(d['api_key'])} revoked`,
  'member.invited': (d) => `${who(d)} invited`,
  'invitation.cancelled': (d) => `Invitation of ${who(d)} cancelled`,
  'member.joined': (d) => `${who(d)} joined`,
  'member.created': (d) => `Account of ${who(d)} created`,
  'member.removed': (d) => `${who(d)} removed`,
  'balance.topped_up': topUpWords,
  'settings.changed': (d) => settingsWords(d),
  'application.created': (d) => `Application ${text(d['name'])} (${text(d['appid'])}) created`,
  'template.created': (d) => `${template(d)} created in ${text(d['lang'])}`,
  'template.text_set': (d) => `${template(d)}: text in ${text(d['lang'])} ${d['created'] ? 'added' : 'replaced'}`,
  'template.text_removed': (d) => `${template(d)}: text in ${text(d['lang'])} removed`,
  'template.deleted': (d) => `${template(d)} deleted${Array.isArray(d['languages']) ? ` with its ${d['languages'].join(', ')} texts` : ''}`,
  'webhook_secret.revealed': () => 'Webhook signing secret revealed',
  'webhook_secret.rotated': (d) => `Webhook signing secret rotated; the old one signs for ${text(d['overlap_seconds'])} s more`,
  'company.created': (d) => `Company ${text(d['name'])} created with ${amount(d['opening_balance'])} ${text(d['currency'])}`.trim(),
  'company.suspended': () => 'Company suspended: its keys are refused',
  'company.unsuspended': () => 'Company unsuspended',
  'operator.created': (d) => `Operator ${text(d['email'])} created`,
  'price.set': priceWords,
  'prices.imported': (d) => `${text(d['count'])} ${d['count'] === 1 ? 'price' : 'prices'} imported from a CSV`,
  'sender.assigned': (d) => `${text(d['value'])} assigned`,
  'sender.unassigned': (d) => `${text(d['value'])} unassigned`,
};

/** One line of what changed, amounts in `currency` if given; an action the console does not know yet shows its details as they are. */
export function summarise(entry: AuditEntry, currency?: string): string {
  return isAuditActionName(entry.action) ? SUMMARIES[entry.action](entry.details, currency) : JSON.stringify(entry.details);
}

/** The page's URL: `?action=key.created`, and for an operator `company_id` (none: the platform's own entries). */
export interface AuditSearch {
  action?: AuditActionName;
  company_id?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What the URL says, anything unknown dropped (a bad action or company id shows every entry rather than an error). */
export function parseAuditSearch(search: Record<string, unknown>): AuditSearch {
  const action = search['action'];
  const companyId = search['company_id'];
  return {
    ...(isAuditActionName(action) ? { action } : {}),
    ...(typeof companyId === 'string' && UUID.test(companyId) ? { company_id: companyId } : {}),
  };
}
