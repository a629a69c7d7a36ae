/**
 * The operators' command-line tool: `npm run --silent admin -- <command> [--option value ...]`.
 * Prints exactly one JSON object on one line on stdout (a CSV report: its text); logs and errors go to stderr.
 * Exit codes: 0 done, 1 refused (bad value, unknown id), 2 bad command line, 3 failed.
 */
import { ACCOUNTS_ENTITIES } from '@mp/accounts';
import { ConfigError, loadConfig } from '@mp/config';
import { createDataSource } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { AdminEnv } from './admin.env';
import { COMMANDS as ACCOUNT_COMMANDS, type AdminContext } from './commands';
import { INBOUND_COMMANDS } from './inbound-commands';
import { OPT_OUT_COMMANDS } from './opt-out-commands';
import { SENDER_COMMANDS } from './sender-commands';
import { CARRIER_COMMANDS } from './carrier-commands';
import { REPORT_COMMANDS } from './report-commands';
import { TextOutput } from './text-output';
import { exitCodeFor } from './exit-codes';
import { UsageError } from './usage-error';

const COMMANDS = { ...ACCOUNT_COMMANDS, ...SENDER_COMMANDS, ...OPT_OUT_COMMANDS, ...INBOUND_COMMANDS, ...CARRIER_COMMANDS, ...REPORT_COMMANDS };

async function main(argv: string[]): Promise<number> {
  const [name, ...args] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stderr.write(usage());
    return name ? 0 : 2;
  }
  const command = COMMANDS[name];
  let dataSource: DataSource | undefined;
  try {
    if (!command) throw new UsageError(`unknown command "${name}"`);
    const config = loadConfig(AdminEnv);
    const context: AdminContext = {
      config,
      database: async () => {
        dataSource ??= await createDataSource({
          url: config.DATABASE_URL,
          applicationName: 'admin',
          poolSize: 2,
          entities: ACCOUNTS_ENTITIES,
          pooler: config.DATABASE_POOLER,
        }).initialize();
        return dataSource;
      },
    };
    const result = await command.run(args, context);
    process.stdout.write(result instanceof TextOutput ? result.text : `${JSON.stringify(result)}\n`);
    return (result as { ok?: boolean }).ok === false ? 3 : 0;
  } catch (error) {
    const code = exitCodeFor(error);
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`admin ${name}: ${message}\n`);
    if (error instanceof UsageError && command) process.stderr.write(`usage: npm run --silent admin -- ${command.usage}\n`);
    if (error instanceof UsageError && !command) process.stderr.write(usage());
    if (code === 3 && !(error instanceof ConfigError) && error instanceof Error && error.stack) {
      process.stderr.write(`${error.stack}\n`);
    }
    return code;
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
  }
}

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([, command]) => `  ${command.usage}\n      ${command.summary}`);
  return `usage: npm run --silent admin -- <command> [options]\n\ncommands:\n${lines.join('\n')}\n`;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`admin: ${String(error)}\n`);
    process.exitCode = 3;
  },
);
