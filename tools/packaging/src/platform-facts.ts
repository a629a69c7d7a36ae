// The platform's facts that the deployment files (docker/, k8s/) are checked against: which apps
// exist, the port each serves, the queues each worker consumes; and how those files are read.
// Nothing here needs Docker or a cluster: the files are parsed and their properties asserted.
import { QueueName } from '@mp/queue-contracts';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = join(__dirname, '..', '..', '..');
export const DOCKER = join(ROOT, 'docker');
export const K8S = join(ROOT, 'k8s');

/** Every BullMQ queue of the platform and the app that consumes it (a queue left out does not compile). */
export const QUEUES = {
  [QueueName.SmsDispatch]: 'sms-dispatcher',
  [QueueName.OtpDispatch]: 'sms-dispatcher',
  [QueueName.CampaignDispatch]: 'sms-dispatcher',
  [QueueName.OtpDeliver]: 'otp',
  [QueueName.DeliveryEvents]: 'webhook-notifier',
  [QueueName.WebhookDeliver]: 'webhook-notifier',
  [QueueName.BillingSettle]: 'billing',
} as const satisfies Record<QueueName, string>;

/** The default QUEUE_PREFIX: BullMQ keeps a queue's waiting jobs in the list <prefix>:<queue>:wait. */
export const QUEUE_PREFIX = 'mp';

/** Every app and the port of its HTTP server: the gateway's API, the workers' health endpoints. */
export const APP_PORTS = {
  gateway: 3000,
  otp: 3101,
  'sms-dispatcher': 3102,
  billing: 3103,
  'webhook-notifier': 3104,
} as const;

export type AppName = keyof typeof APP_PORTS;
export const APPS = Object.keys(APP_PORTS) as AppName[];
export const WORKERS = APPS.filter((app) => app !== 'gateway');

/** Only the gateway (and the admin tool that migrates) may see these. */
export const GATEWAY_SECRETS = ['API_KEY_PEPPER', 'JWT_SECRET'];

export function queuesOf(app: AppName): string[] {
  return Object.entries(QUEUES)
    .filter(([, consumer]) => consumer === app)
    .map(([queue]) => queue);
}

/**
 * The queues a worker app's definition (apps/<app>/src/<app>.app.ts) lists in `consume`, read
 * from its source: tools may not import apps.
 */
export function consumedQueues(worker: AppName): string[] {
  const source = read(join(ROOT, 'apps', worker, 'src', `${worker}.app.ts`));
  const list = /\bconsume:\s*\[([^\]]*)\]/.exec(source)?.[1];
  if (list === undefined) throw new Error(`apps/${worker}: no consume list in its app definition`);
  return [...list.matchAll(/QueueName\.(\w+)/g)].map(([, key]) => {
    if (!(key in QueueName)) throw new Error(`apps/${worker}: unknown QueueName.${key}`);
    return QueueName[key as keyof typeof QueueName];
  });
}

export function read(path: string): string {
  return readFileSync(path, 'utf8');
}

/** Every document of a YAML file, as plain data; fails on any syntax error. */
export function yamlDocuments(path: string): unknown[] {
  const documents = parseAllDocuments(read(path));
  return documents.map((document) => {
    if (document.errors.length > 0) {
      throw new Error(`${relative(ROOT, path)}: ${document.errors.map((error) => error.message).join('; ')}`);
    }
    return document.toJS() as unknown;
  });
}

/** KEY=value lines of an env file (comments and blank lines skipped). */
export function envFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map(([, key, value]) => [key, value] as const);
  return Object.fromEntries(entries);
}
