// The processes `npm start` runs, in start order (the gateway first). Add a process — say a
// simulator — by adding an entry; an entry whose compiled file does not exist is skipped.

export interface StackProcess {
  /** Shown as the prefix of the process's log lines; also names its port variable (see portEnvName). */
  name: string;
  /** The compiled entry point, relative to the repository root. */
  entry: string;
  /** The port its HTTP server (API or health) listens on unless overridden. */
  port: number;
  /** Options for node itself, before the entry point (docker/entrypoint.sh gives the image's the same). */
  nodeFlags?: readonly string[];
}

/**
 * V8 heap flags of the sms-dispatcher, which makes and drops a few objects per PDU and per row at
 * thousands of parts a second (docs/bypasses.md #16):
 * - 64 MiB semi-spaces, so it scavenges less often (docs/decisions/0012-dispatcher-young-generation.md);
 * - no allocation-site pretenuring, so a campaign's long-lived rows do not make an OTP's short-lived
 *   ones old (docs/decisions/0032-dispatcher-without-pretenuring.md);
 * - an old generation that may grow to three times its live size, so full collections, which stop
 *   it, come rarely (docs/decisions/0033-dispatcher-old-generation-growth.md).
 * The other apps keep V8's defaults.
 */
export const DISPATCHER_NODE_FLAGS = ['--max-semi-space-size=64', '--no-allocation-site-pretenuring', '--heap-growing-percent=200'] as const;

export const STACK_PROCESSES: readonly StackProcess[] = [
  { name: 'gateway', entry: 'dist/out/apps/gateway/src/main.js', port: 3000 },
  { name: 'otp', entry: 'dist/out/apps/otp/src/main.js', port: 3101 },
  { name: 'sms-dispatcher', entry: 'dist/out/apps/sms-dispatcher/src/main.js', port: 3102, nodeFlags: DISPATCHER_NODE_FLAGS },
  { name: 'billing', entry: 'dist/out/apps/billing/src/main.js', port: 3103 },
  { name: 'webhook-notifier', entry: 'dist/out/apps/webhook-notifier/src/main.js', port: 3104 },
  { name: 'smsc-simulator', entry: 'dist/out/tools/smsc-simulator/src/main.js', port: 2776 },
  { name: 'whatsapp-simulator', entry: 'dist/out/tools/whatsapp-simulator/src/main.js', port: 2780 },
];

/** The process whose /health tells that the stack is up. */
export const GATEWAY = 'gateway';

/**
 * The variable that overrides a process's port: PORT for the gateway, otherwise the name in upper
 * snake case followed by _PORT (OTP_PORT, SMS_DISPATCHER_PORT, WEBHOOK_NOTIFIER_PORT, ...).
 */
export function portEnvName(name: string): string {
  return name === GATEWAY ? 'PORT' : `${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_PORT`;
}

/** Parses a port number, naming the variable it came from when it is not one. */
export function parsePort(value: string, variable: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw new Error(`${variable}=${JSON.stringify(value)} is not a port number (1-65535)`);
  }
  return port;
}

/** The port a process listens on: its variable's value if set, else its default. */
export function portFor(stackProcess: StackProcess, env: Record<string, string | undefined>): number {
  const variable = portEnvName(stackProcess.name);
  const value = env[variable];
  return value === undefined || value === '' ? stackProcess.port : parsePort(value, variable);
}

/** Parses a comma-separated list of process names (MP_APPS); undefined when empty, i.e. all. */
export function parseProcessFilter(value: string | undefined): string[] | undefined {
  const names = (value ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return names.length === 0 ? undefined : [...new Set(names)];
}

/** The processes to run, in start order; refuses names that are not in the list. */
export function selectProcesses(all: readonly StackProcess[], names: readonly string[] | undefined): StackProcess[] {
  if (!names) return [...all];
  const unknown = names.filter((name) => !all.some((item) => item.name === name));
  if (unknown.length > 0) {
    const known = all.map((item) => item.name).join(', ');
    throw new Error(`Unknown process ${unknown.join(', ')} in MP_APPS (known: ${known})`);
  }
  return all.filter((item) => names.includes(item.name));
}
