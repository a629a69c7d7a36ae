import { AccountsService, accountsRepositories, CatalogService, catalogRepositories, PeopleService, peopleRepositories } from '@mp/accounts';
import { parseAssignments } from '@mp/accounts-domain';
import { createDataSource, runMigrations } from '@mp/persistence';
import { ALL_QUEUES } from '@mp/queue-contracts';
import type { DataSource } from 'typeorm';
import type { AdminEnv } from './admin.env';
import { parseOptions } from './arguments';
import { UsageError } from './usage-error';

export interface AdminContext {
  config: AdminEnv;
  /** Connected on first use, so commands that need no database do not open one. */
  database(): Promise<DataSource>;
}

export interface Command {
  summary: string;
  usage: string;
  run(args: readonly string[], context: AdminContext): Promise<unknown>;
}

const accounts = async (context: AdminContext) => {
  const db = await context.database();
  return new AccountsService(db, accountsRepositories(db), context.config.API_KEY_PEPPER);
};
const people = async (context: AdminContext) => {
  const db = await context.database();
  return new PeopleService(db, peopleRepositories(db));
};
const catalog = async (context: AdminContext) => {
  const db = await context.database();
  return new CatalogService(db, catalogRepositories(db));
};

/** Every command of the admin tool; each prints one JSON object. */
export const COMMANDS: Record<string, Command> = {
  'db:migrate': {
    summary: 'apply pending database migrations (on MIGRATION_DATABASE_URL when set)',
    usage: 'db:migrate',
    run: async (args, context) => {
      parseOptions(args, { required: [] });
      const direct = context.config.MIGRATION_DATABASE_URL;
      if (!direct) return { applied: await runMigrations(await context.database()) };
      const db = await createDataSource({ url: direct, applicationName: 'admin-migrate', poolSize: 2 }).initialize();
      try {
        return { applied: await runMigrations(db) };
      } finally {
        await db.destroy();
      }
    },
  },
  'company:create': {
    summary: 'create a company with a balance, a first application, an API key pair and a webhook secret',
    usage: 'company:create --name NAME --balance AMOUNT [--currency EUR]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['name', 'balance'], optional: ['currency'] });
      return (await accounts(context)).createCompany({ name: values.name, balance: values.balance, currency: values.currency });
    },
  },
  'company:update': {
    summary: 'change company settings: name, currency, otp_rate_limit',
    usage: 'company:update --company ID --set key=value [--set key=value ...]',
    run: async (args, context) => {
      const { values, lists } = parseOptions(args, { required: ['company'], repeated: ['set'] });
      return (await accounts(context)).updateCompany(values.company, parseAssignments(lists.set));
    },
  },
  'app:create': {
    summary: 'create an application of a company',
    usage: 'app:create --company ID --name NAME',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'name'] });
      return (await accounts(context)).createApplication(values.company, values.name);
    },
  },
  'app:update': {
    summary: 'change application settings (otp_validity_minutes, timezone, webhook_url, allowed_countries, otp_prefix_limit_per_hour)',
    usage: 'app:update --appid APPID --set key=value [--set key=value ...]',
    run: async (args, context) => {
      const { values, lists } = parseOptions(args, { required: ['appid'], repeated: ['set'] });
      return (await accounts(context)).updateApplication(values.appid, parseAssignments(lists.set));
    },
  },
  'key:create': {
    summary: 'create another API key pair for a company (the secret is shown only now)',
    usage: 'key:create --company ID',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company'] });
      const { api_key, api_secret } = await (await accounts(context)).createKey(values.company);
      return { api_key, api_secret };
    },
  },
  'key:revoke': {
    summary: 'revoke an API key; requests and tokens made with it are refused',
    usage: 'key:revoke --key API_KEY',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['key'] });
      return (await accounts(context)).revokeKey(values.key);
    },
  },
  'user:create': {
    summary: "create a dashboard user: a company's owner (the default) or developer, or with --operator one who sees every company",
    usage: 'user:create (--company ID [--role owner|developer] | --operator) --email EMAIL --password PASSWORD',
    run: async (args, context) => {
      const { values, flags } = parseOptions(args, { required: ['email', 'password'], optional: ['company', 'role'], flags: ['operator'] });
      if (flags.operator && (values.company !== undefined || values.role !== undefined)) throw new UsageError('--operator takes neither --company nor --role');
      if (!flags.operator && values.company === undefined) throw new UsageError('--company is required (or --operator)');
      const user = await (
        await people(context)
      ).createUser({
        companyId: flags.operator ? null : values.company,
        email: values.email,
        password: values.password,
        role: flags.operator ? 'operator' : (values.role ?? 'owner'),
      });
      return { user_id: user.id, email: user.email, role: user.role, company_id: user.companyId };
    },
  },
  'balance:topup': {
    summary: "add money to a company's balance (recorded in the ledger)",
    usage: 'balance:topup --company ID --amount AMOUNT',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'amount'] });
      return (await accounts(context)).topUp(values.company, values.amount);
    },
  },
  'template:create': {
    summary: 'create an OTP/message template of an application, with its text in one language',
    usage: 'template:create --appid APPID --text TEXT [--lang en]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['appid', 'text'], optional: ['lang'] });
      return (await catalog(context)).createTemplate({ appid: values.appid, text: values.text, lang: values.lang });
    },
  },
  'template:translate': {
    summary: "set a template's text in a language (adds a translation, or replaces that language's text)",
    usage: 'template:translate --template ID --lang LANG --text TEXT',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['template', 'lang', 'text'] });
      return (await catalog(context)).translateTemplate({ template: values.template, lang: values.lang, text: values.text });
    },
  },
  'price:set': {
    summary: 'set the price per part for a destination prefix and route',
    usage: 'price:set --prefix +44 --route auto|standard|premium|whatsapp --price 0.035',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['prefix', 'route', 'price'] });
      return (await catalog(context)).setPrice({ prefix: values.prefix, route: values.route, price: values.price });
    },
  },
  'queue:probe': {
    summary: 'send a probe through every queue and report which worker answered',
    usage: 'queue:probe [--timeout MS]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: [], optional: ['timeout'] });
      const timeout = values.timeout === undefined ? 10_000 : Number(values.timeout);
      // Loaded here: BullMQ and NestJS take a second to load, which no other command needs.
      const { probeQueues } = await import('@mp/queue-runtime');
      const queues = await probeQueues({ redisUrl: context.config.REDIS_URL, prefix: context.config.QUEUE_PREFIX }, ALL_QUEUES, timeout);
      return { ok: queues.every((queue) => queue.ok), queues };
    },
  },
};
