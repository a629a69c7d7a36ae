import { isIP } from 'node:net';
import type { ConnectionOptions } from 'node:tls';

/**
 * How a bind reaches its SMSC: plain TCP, or SMPP over TLS with the SMSC's certificate verified
 * (against `ca`, or Node's list of public CAs). The shape a carrier's settings hand over, whether
 * they come from the environment (SMSC_TLS*) or from a carrier defined at run time.
 */
export interface SmppTransport {
  tls: boolean;
  /** PEM certificates to trust instead of Node's list: the carrier's private CA, or its self-signed certificate. */
  ca?: string;
  /** The name the certificate must be issued to (and the SNI sent), when it is not the host connected to. */
  servername?: string;
  /** false accepts any certificate: encrypted, but anyone in the path can pose as the SMSC. Default true. */
  rejectUnauthorized?: boolean;
}

export const PLAIN_TCP: SmppTransport = { tls: false };

/** What the smpp package's connect() passes to net.connect, or with `tls: true` to tls.connect. */
export type SmppSocketOptions = { host: string; port: number } | ({ host: string; port: number; tls: true } & ConnectionOptions);

export function smppSocketOptions(host: string, port: number, transport: SmppTransport = PLAIN_TCP): SmppSocketOptions {
  if (!transport.tls) return { host, port };
  const servername = transport.servername ?? (isIP(host) === 0 ? host : undefined);
  return {
    host,
    port,
    tls: true,
    minVersion: 'TLSv1.2',
    rejectUnauthorized: transport.rejectUnauthorized ?? true,
    ...(transport.ca === undefined ? {} : { ca: transport.ca }),
    ...(servername === undefined ? {} : { servername }),
  };
}

/** The checks OpenSSL and Node make of a peer's certificate, by the `code` of the error they raise. */
const CERTIFICATE_ERROR_CODES = new Set([
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_DECRYPT_CERT_SIGNATURE',
  'UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_NOT_YET_VALID',
  'CERT_HAS_EXPIRED',
  'ERROR_IN_CERT_NOT_BEFORE_FIELD',
  'ERROR_IN_CERT_NOT_AFTER_FIELD',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'CERT_CHAIN_TOO_LONG',
  'CERT_REVOKED',
  'INVALID_CA',
  'PATH_LENGTH_EXCEEDED',
  'INVALID_PURPOSE',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'HOSTNAME_MISMATCH',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The reason (OpenSSL's code) when the error is the SMSC's certificate failing verification,
 * which no retry mends; undefined for any other error (a refused or reset connection).
 */
export function certificateRefusal(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CERTIFICATE_ERROR_CODES.has(code) ? code : undefined;
}
