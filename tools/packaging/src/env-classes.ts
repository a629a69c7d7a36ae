// Every env class of the platform: what each app and tool reads from its environment, through
// the one loader of libs/config. The classes live in apps and tools that no project may import
// (Nx boundaries), so they are loaded by path: only the tests of this project read them.
import { loadConfig } from '@mp/config';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './platform-facts';

export interface EnvClassEntry {
  /** The process (or base) whose environment the class describes. */
  owner: string;
  /** The file that exports it, from the repository root. */
  file: string;
  className: string;
  /**
   * The exported function the process itself loads its config through, when it is not a plain
   * loadConfig(EnvClass): the simulators fall back to HOST and PORT first.
   */
  reader?: string;
}

/** The env class each deployed process runs on: what docker/ and k8s/ must satisfy. */
export const DEPLOYED = {
  gateway: { owner: 'gateway', file: 'apps/gateway/src/gateway.env.ts', className: 'GatewayEnv' },
  otp: { owner: 'otp', file: 'apps/otp/src/otp.env.ts', className: 'OtpEnv' },
  'sms-dispatcher': { owner: 'sms-dispatcher', file: 'apps/sms-dispatcher/src/sms-dispatcher.env.ts', className: 'SmsDispatcherEnv' },
  billing: { owner: 'billing', file: 'apps/billing/src/billing.env.ts', className: 'BillingEnv' },
  'webhook-notifier': { owner: 'webhook-notifier', file: 'apps/webhook-notifier/src/webhook-notifier.env.ts', className: 'WebhookNotifierEnv' },
  // The migration (compose service `migrate`, Job `db-migrate`) is the admin CLI.
  migrate: { owner: 'admin', file: 'tools/admin/src/admin.env.ts', className: 'AdminEnv' },
} as const satisfies Record<string, EnvClassEntry>;

/** Read by every app beside its own class, at start (startTracing): the migration (the admin CLI) does not trace. */
export const TRACING_ENV = { owner: 'tracing (every app)', file: 'libs/config/src/tracing.env.ts', className: 'TracingEnv' } as const satisfies EnvClassEntry;
export const TRACED_PROCESSES: readonly string[] = ['gateway', 'otp', 'sms-dispatcher', 'billing', 'webhook-notifier'];

export const ENV_CLASSES: readonly EnvClassEntry[] = [
  ...Object.values(DEPLOYED),
  { owner: 'worker base', file: 'libs/app-runtime/src/worker.env.ts', className: 'WorkerEnv' },
  { owner: 'common base', file: 'libs/config/src/common.env.ts', className: 'CommonEnv' },
  { owner: 'queue base', file: 'libs/config/src/common.env.ts', className: 'QueueEnv' },
  { owner: 'credential base', file: 'libs/config/src/common.env.ts', className: 'CredentialEnv' },
  TRACING_ENV,
  { owner: 'smsc-simulator', file: 'tools/smsc-simulator/src/config.ts', className: 'SmscSimulatorEnv', reader: 'readSimulatorEnv' },
  { owner: 'whatsapp-simulator', file: 'tools/whatsapp-simulator/src/config.ts', className: 'WhatsappSimulatorEnv', reader: 'readSimulatorEnv' },
];

export type EnvClass = new () => object;
export type ConfigReader = (env: NodeJS.ProcessEnv) => object;

export interface LoadedEnvClass extends EnvClassEntry {
  envClass: EnvClass;
  /** The process's own way of loading its config: its reader, else loadConfig(envClass, env). */
  read: ConfigReader;
}

/** Imports an entry's module by path and returns its class and loader. */
export async function loadEnvClass(entry: EnvClassEntry): Promise<LoadedEnvClass> {
  const exports = (await import(join(ROOT, entry.file))) as Record<string, unknown>;
  const envClass = exports[entry.className];
  if (typeof envClass !== 'function') throw new Error(`${entry.file} does not export ${entry.className}`);
  const reader = entry.reader === undefined ? undefined : exports[entry.reader];
  if (entry.reader !== undefined && typeof reader !== 'function') throw new Error(`${entry.file} does not export ${entry.reader}`);
  const read: ConfigReader = reader ? (reader as ConfigReader) : (env) => loadConfig(envClass as EnvClass, env);
  return { ...entry, envClass: envClass as EnvClass, read };
}

/** Source files of apps/, libs/ and tools/ (no tests, no node_modules or build output). */
export function sourceFiles(directory = ROOT): string[] {
  return readdirSync(directory).flatMap((entry) => {
    if (['node_modules', 'dist', '.data', '.nx', '.git', 'coverage', 'tmp'].includes(entry)) return [];
    const path = join(directory, entry);
    if (statSync(path).isDirectory()) return directory === ROOT && !['apps', 'libs', 'tools'].includes(entry) ? [] : sourceFiles(path);
    return /\.ts$/.test(entry) && !/\.(spec|integration-spec|e2e-spec|d)\.ts$/.test(entry) ? [relative(ROOT, path)] : [];
  });
}

/**
 * The env classes the source hands to the loader: files named *.env.ts, and every class given to
 * loadConfig, loadConfigOrExit or runWorkerApp, as `file#Class` where the file declares it.
 */
export function envClassesInSource(): string[] {
  const files = sourceFiles();
  const texts = new Map(files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')]));
  const loaded = new Set<string>();
  for (const text of texts.values()) {
    for (const [, args] of text.matchAll(/\b(?:loadConfig|loadConfigOrExit|runWorkerApp)\(([^()]*)/g)) {
      for (const [name] of args.matchAll(/\b[A-Z]\w*Env\b/g)) loaded.add(name);
    }
  }
  const found = new Set<string>();
  for (const [file, text] of texts) {
    for (const [, name] of text.matchAll(/export class (\w+)/g)) {
      if (loaded.has(name) || (file.endsWith('.env.ts') && name.endsWith('Env'))) found.add(`${file}#${name}`);
    }
  }
  return [...found].sort();
}
