// Every env class read through the real loader, and the README's "Configuration" table held to them.
import { envVariables } from '@mp/config';
import { ENV_CLASSES, envClassesInSource, loadEnvClass, type LoadedEnvClass } from './env-classes';
import { configurationRows, expandName, readmeRows } from './readme-config';

/**
 * A valid value for every variable any env class reads, each unlike its default: loading a class
 * with these must give back exactly these values, so every variable is shown to be read.
 */
const SAMPLES: Record<string, string> = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'debug',
  LOG_CONTEXT: 'on',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector.sample.internal:4318',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'https://traces.sample.internal/v1/traces',
  OTEL_TRACES_EXPORTER: 'none',
  OTEL_SDK_DISABLED: 'true',
  DATABASE_URL: 'postgres://app:pw@db.sample.internal:5432/sample',
  REDIS_URL: 'redis://cache.sample.internal:6380',
  HOST: '0.0.0.0',
  QUEUE_PREFIX: 'sample',
  PORT: '4321',
  DATABASE_POOL_SIZE: '7',
  SHUTDOWN_DRAIN_MS: '2500',
  SHUTDOWN_TIMEOUT_MS: '30000',
  DATABASE_POOLER: 'pgbouncer-transaction',
  MIGRATION_DATABASE_URL: 'postgres://app:pw@db-direct.sample.internal:5432/sample',
  API_KEY_PEPPER: 'sample-pepper-'.padEnd(40, 'p'),
  JWT_SECRET: 'sample-jwt-secret-'.padEnd(40, 'j'),
  AUTH_CACHE_TTL_MS: '2500',
  DASHBOARD_SESSION_IDLE_MINUTES: '0.5',
  DASHBOARD_SESSION_MAX_HOURS: '1.5',
  OTP_HASH_KEY: Buffer.alloc(32, 1).toString('base64'),
  OTP_TEXT_KEY: Buffer.alloc(32, 2).toString('base64'),
  OTP_EXPIRY_SWEEP_MS: '2000',
  WHATSAPP_APP_SECRET: 'sample-app-secret',
  WHATSAPP_VERIFY_TOKEN: 'sample-verify-token',
  WHATSAPP_API_BASE_URL: 'https://graph.facebook.com',
  WHATSAPP_API_VERSION: 'v22.0',
  WHATSAPP_PHONE_NUMBER_ID: '123456789012345',
  WHATSAPP_ACCESS_TOKEN: 'sample-access-token',
  WHATSAPP_TEMPLATE_NAME: 'sample_template',
  WHATSAPP_TIMEOUT_MS: '5000',
  SMSC_HOST: 'smsc.sample.net',
  SMSC_PORT: '2800',
  SMSC_SYSTEM_ID: 'sample-system',
  SMSC_PASSWORD: 'sample-password',
  SMSC_STANDARD_HOST: 'standard.sample.net',
  SMSC_STANDARD_PORT: '2801',
  SMSC_STANDARD_SYSTEM_ID: 'sample-standard',
  SMSC_STANDARD_PASSWORD: 'standard-password',
  SMSC_PREMIUM_HOST: 'premium.sample.net',
  SMSC_PREMIUM_PORT: '2802',
  SMSC_PREMIUM_SYSTEM_ID: 'sample-premium',
  SMSC_PREMIUM_PASSWORD: 'premium-password',
  SMSC_TLS: 'true',
  SMSC_TLS_CA: '/etc/carrier/ca.pem',
  SMSC_TLS_SERVERNAME: 'smpp.sample.net',
  SMSC_TLS_REJECT_UNAUTHORIZED: 'false',
  SMSC_TLS_PORT: '2793',
  SMSC_TLS_CERT: '/etc/smsc/cert.pem',
  SMSC_TLS_KEY: '/etc/smsc/key.pem',
  SMSC_TLS_CERT_OUT: '/etc/smsc/written.pem',
  SMPP_BINDS: '3',
  CARRIERS_FROM: 'environment',
  CARRIER_POLL_MS: '500',
  CARRIER_RETRY_BUDGET: '2',
  SMPP_WINDOW: '20',
  SMPP_MAX_PER_SECOND: '100',
  SUBMIT_MAX_UNRECORDED: '500',
  CAMPAIGN_PACE_WHILE_OTHERS_FLOW: '150',
  OUTBOX_SWEEP_MS: '1000',
  RECEIPT_TIMEOUT_MINUTES: '60',
  OPT_OUT_KEYWORDS: 'STOPP,DESINSCRIRE',
  WEBHOOK_ALLOW_LOOPBACK: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  SENDER_IDS_REGISTERED_ONLY: 'true',
  WEBHOOK_TIMEOUT_MS: '2500',
  WEBHOOK_RETRY_SCALE: '0.5',
  WEBHOOK_SWEEP_MS: '5000',
  WEBHOOK_OVERDUE_MS: '1000',
  SMSC_HTTP_PORT: '2790',
  SMSC_RECEIPT_DELAY_MS: '50',
  SMSC_FAILURE_RATE: '0.25',
  SMSC_REJECT_RATE: '0.125',
  SMSC_LATENCY_MS: '5',
  SMSC_MAX_RATE_PER_SECOND: '10',
  WHATSAPP_SIMULATOR_HOST: '0.0.0.0',
  WHATSAPP_SIMULATOR_PORT: '2791',
  WHATSAPP_SIMULATOR_WEBHOOK_URL: 'http://127.0.0.1:3000/webhooks/whatsapp',
  WHATSAPP_SIMULATOR_STATUS_DELAY_MS: '50',
  WHATSAPP_SIMULATOR_FAILURE_RATE: '0.5',
};

describe('env classes', () => {
  let classes: LoadedEnvClass[];
  beforeAll(async () => {
    classes = await Promise.all(ENV_CLASSES.map(loadEnvClass));
  });
  const named = (className: string): LoadedEnvClass => {
    const found = classes.find((entry) => entry.className === className);
    if (!found) throw new Error(`${className} is not registered`);
    return found;
  };

  it('lists every env class the source loads or declares (tools/packaging/src/env-classes.ts)', () => {
    const registered = ENV_CLASSES.map(({ file, className }) => `${file}#${className}`).sort();
    expect(registered).toEqual(envClassesInSource());
  });

  it.each(ENV_CLASSES.map(({ owner, className }) => [owner, className]))('%s (%s): the loader reads every declared variable', (_owner, className) => {
    const entry = named(className);
    const variables = envVariables(entry.envClass);
    expect(variables.length).toBeGreaterThan(0);
    expect(variables.filter((name) => !(name in SAMPLES))).toEqual([]);
    const env = Object.fromEntries(variables.map((name) => [name, SAMPLES[name]]));
    const defaults = entry.read({}) as Record<string, unknown>;
    const config = entry.read(env) as Record<string, unknown>;
    for (const name of variables) {
      expect({ name, read: String(config[name]) }).toEqual({ name, read: env[name] });
      expect({ name, differsFromDefault: config[name] !== defaults[name] }).toEqual({ name, differsFromDefault: true });
    }
  });

  it('reads the optional per-route SMSCs, which have no default', () => {
    const variables = envVariables(named('SmsDispatcherEnv').envClass);
    for (const route of ['STANDARD', 'PREMIUM']) {
      for (const part of ['HOST', 'PORT', 'SYSTEM_ID', 'PASSWORD']) expect(variables).toContain(`SMSC_${route}_${part}`);
    }
  });
});

describe('README "Configuration" table', () => {
  let read: Map<string, string[]>;
  beforeAll(async () => {
    read = new Map();
    for (const entry of await Promise.all(ENV_CLASSES.map(loadEnvClass))) {
      for (const name of envVariables(entry.envClass)) read.set(name, [...(read.get(name) ?? []), entry.owner]);
    }
  });
  const documented = () => new Set(readmeRows().flatMap(({ variables }) => variables));

  it('documents only variables that some env class reads', () => {
    expect([...documented()].filter((name) => !read.has(name)).sort()).toEqual([]);
  });

  it('documents every variable an env class reads', () => {
    const missing = [...read.keys()].filter((name) => !documented().has(name)).map((name) => `${name} (${read.get(name)?.join(', ')})`);
    expect(missing.sort()).toEqual([]);
  });

  it('names each variable once per row, and a group in braces', () => {
    for (const { cell, variables } of readmeRows()) expect({ cell, repeated: variables.length - new Set(variables).size }).toEqual({ cell, repeated: 0 });
    expect(expandName('SMSC_STANDARD_{HOST,PORT,SYSTEM_ID}')).toEqual(['SMSC_STANDARD_HOST', 'SMSC_STANDARD_PORT', 'SMSC_STANDARD_SYSTEM_ID']);
    expect(expandName('{A,B}_TIMEOUT')).toEqual(['A_TIMEOUT', 'B_TIMEOUT']);
    expect(() => expandName('_PORT')).toThrow(/neither a variable name/);
    expect(() => expandName('SMSC_PREMIUM_…')).toThrow(/neither a variable name/);
  });

  it('reads the table of a section only, up to the next heading', () => {
    const markdown = [
      '### Configuration',
      '| Variable | Default | Used by |',
      '|---|---|---|',
      '| `A`, `B_{X,Y}` | 1 | a |',
      '',
      '| Variable | Default |',
      '## Next',
      '| Variable | x |',
      '|---|---|',
      '| `C` | 2 |',
    ].join('\n');
    expect(configurationRows(markdown)).toEqual([{ cell: '`A`, `B_{X,Y}`', variables: ['A', 'B_X', 'B_Y'] }]);
  });
});
