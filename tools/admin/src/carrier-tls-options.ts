import { readFileSync, statSync } from 'node:fs';
import { RoutingInputError, summariseTlsCa, type CarrierChanges, type CarrierView } from '@mp/routing';
import { UsageError } from './usage-error';

/** The options of carrier:create and carrier:update that set a carrier's own TLS trust. */
export const TLS_OPTIONS = ['tls-ca-file', 'tls-server-name'];
/** carrier:update's way back to SMSC_TLS_CA's (or Node's) CAs and the host's name. */
export const TLS_CLEAR_FLAGS = ['no-tls-ca', 'no-tls-server-name'];

/** A CA file is a few certificates; anything far larger is the wrong file. */
const MAX_FILE_BYTES = 1024 * 1024;

/**
 * The carrier's CA (the PEM read from --tls-ca-file; the store checks it is X.509) and server
 * name from the command line: undefined where not given, null where cleared (--no-tls-ca,
 * --no-tls-server-name). An empty value is refused rather than read as "clear".
 */
export function tlsChangesFrom(values: Record<string, string>, flags: Record<string, boolean>): Pick<CarrierChanges, 'tlsCa' | 'tlsServerName'> {
  return {
    tlsCa: chosen('tls-ca-file', 'no-tls-ca', values, flags, readCaFile),
    tlsServerName: chosen('tls-server-name', 'no-tls-server-name', values, flags, (name) => name),
  };
}

function chosen(
  option: string,
  clear: string,
  values: Record<string, string>,
  flags: Record<string, boolean>,
  read: (value: string) => string,
): string | null | undefined {
  const value = values[option];
  if (value !== undefined && flags[clear]) throw new UsageError(`give --${option} or --${clear}, not both`);
  if (flags[clear]) return null;
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`--${option} must not be empty (--${clear} clears it)`);
  return read(value);
}

function readCaFile(path: string): string {
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new RoutingInputError(`--tls-ca-file "${path}" is over 1 MiB: give the PEM of the CA certificate(s)`);
    return readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof RoutingInputError) throw error;
    const { code, message } = error as NodeJS.ErrnoException;
    throw new RoutingInputError(`--tls-ca-file "${path}" cannot be read (${code ?? message})`);
  }
}

/** The carrier's own TLS trust as the tool prints it: which certificates, never their PEM. */
export function shownTls(carrier: CarrierView): { tls_ca: { subject: string; sha256: string; not_after: string }[] | null; tls_server_name: string | null } {
  return {
    tls_ca: carrier.tlsCa === null ? null : summariseTlsCa(carrier.tlsCa).map(({ subject, sha256, notAfter }) => ({ subject, sha256, not_after: notAfter })),
    tls_server_name: carrier.tlsServerName,
  };
}
