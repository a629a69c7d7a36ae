import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');

/**
 * Which lib owns each table: the only one whose SQL inserts, updates or deletes its rows. Others
 * read it (a join) or write it through the owner's API (OTPs insert their messages with the
 * messaging lib's MessageRepository, every writer commits jobs with the queue runtime's outbox
 * fragments). The schema itself is the migrations' (libs/persistence).
 */
const TABLE_OWNERS: Record<string, string> = {
  companies: 'libs/accounts/data-access',
  applications: 'libs/accounts/data-access',
  api_keys: 'libs/accounts/data-access',
  templates: 'libs/accounts/data-access',
  prices: 'libs/accounts/data-access',
  users: 'libs/accounts/data-access',
  user_sessions: 'libs/accounts/data-access',
  invitations: 'libs/accounts/data-access',
  audit_entries: 'libs/accounts/data-access',
  company_senders: 'libs/accounts/data-access',
  balances: 'libs/billing/data-access',
  ledger_entries: 'libs/billing/data-access',
  messages: 'libs/messaging/data-access',
  message_parts: 'libs/messaging/data-access',
  carrier_receipts: 'libs/messaging/data-access',
  sweep_cursors: 'libs/messaging/data-access',
  campaigns: 'libs/messaging/data-access',
  campaign_batches: 'libs/messaging/data-access',
  opt_outs: 'libs/messaging/data-access',
  inbound_messages: 'libs/messaging/data-access',
  inbound_fragments: 'libs/messaging/data-access',
  otps: 'libs/otp/data-access',
  otp_events: 'libs/otp/data-access',
  otp_attempts: 'libs/otp/data-access',
  webhook_deliveries: 'libs/webhooks/data-access',
  webhook_attempts: 'libs/webhooks/data-access',
  outbox: 'libs/queue-runtime',
  carriers: 'libs/routing/data-access',
  carrier_routes: 'libs/routing/data-access',
  routing_version: 'libs/routing/data-access',
};

/** Where tests and tools set up or fault rows on purpose. */
const NOT_CHECKED = [
  /\.(spec|integration-spec|e2e-spec)\.ts$/,
  /^libs\/persistence\/src\/migrations\//,
  /^apps\/platform-e2e\//,
  /^libs\/testing\//,
  /^tools\//,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The tables a source writes with SQL of its own, comments left out. */
function tablesWritten(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const written = [...code.matchAll(/\b(?:INSERT\s+INTO|DELETE\s+FROM|TRUNCATE(?:\s+TABLE)?|(?<!\b(?:FOR|DO)\s+)UPDATE)\s+([a-z_]+)/g)];
  return [...new Set(written.map((match) => match[1]))];
}

describe('table owners', () => {
  it('names an owner for every table the migrations create, and no other', () => {
    const migrations = sourceFiles('libs/persistence/src/migrations').filter((file) => !/\.(integration-)?spec\.ts$/.test(file));
    const created = migrations.flatMap((file) => [...readFileSync(join(ROOT, file), 'utf8').matchAll(/CREATE TABLE ([a-z_]+)/g)].map((match) => match[1]));
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual([...new Set(created)].sort());
  });

  it('finds the tables a statement writes, not the words around them', () => {
    expect(tablesWritten('`UPDATE balances b SET x = 1 FROM t FOR UPDATE OF b`')).toEqual(['balances']);
    expect(tablesWritten('`INSERT INTO templates (a) VALUES (1) ON CONFLICT (a) DO UPDATE SET a = 2`')).toEqual(['templates']);
    expect(tablesWritten('`SELECT 1 FROM otps FOR UPDATE SKIP LOCKED`; // One UPDATE per company row\n/* DELETE FROM outbox */')).toEqual([]);
  });

  it('has every table written by its owner only', () => {
    const offenders = ['apps', 'libs', 'tools']
      .flatMap(sourceFiles)
      .filter((file) => !NOT_CHECKED.some((pattern) => pattern.test(file)))
      .flatMap((file) =>
        tablesWritten(readFileSync(join(ROOT, file), 'utf8'))
          .filter((table) => table in TABLE_OWNERS && !file.startsWith(`${TABLE_OWNERS[table]}/`))
          .map((table) => `${relative(ROOT, join(ROOT, file))} writes ${table}, owned by ${TABLE_OWNERS[table]}`),
      );
    expect(offenders).toEqual([]);
  });
});
