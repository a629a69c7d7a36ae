import { X509Certificate } from 'node:crypto';
import { RoutingInputError } from './routing-errors';

/** Bound of a carrier's CA bundle, as the table's check holds it. */
export const TLS_CA_MAX_LENGTH = 65_536;

const CERTIFICATE_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const SERVER_NAME = /^(?=.{1,253}$)[A-Za-z0-9*]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9]([A-Za-z0-9-]{0,62}))*\.?$/;

/** A carrier's CA certificate as carrier:list shows it: enough to tell which one it is, never the PEM. */
export interface TlsCaSummary {
  subject: string;
  sha256: string;
  notAfter: string;
}

/**
 * The PEM of the certificates a carrier's TLS binds trust, checked and normalised: every
 * `CERTIFICATE` block must parse as X.509 (what Node's TLS will load), anything else in the file
 * (comments of a bundle) is dropped, and a private key is refused, since that file is the wrong one
 * and would be stored in the clear.
 */
export function checkTlsCa(pem: string): string {
  if (/PRIVATE KEY-----/.test(pem))
    throw new RoutingInputError("--tls-ca-file holds a private key: give the CA certificate (or the SMSC's own certificate) only");
  const blocks = pem.match(CERTIFICATE_BLOCK) ?? [];
  if (blocks.length === 0) throw new RoutingInputError('--tls-ca-file holds no PEM certificate ("-----BEGIN CERTIFICATE-----")');
  const normal = blocks
    .map((block, index) => {
      try {
        return new X509Certificate(block).toString();
      } catch (error) {
        throw new RoutingInputError(
          `--tls-ca-file: certificate ${index + 1} of ${blocks.length} is not a valid X.509 certificate (${(error as Error).message})`,
        );
      }
    })
    .join('');
  if (normal.length > TLS_CA_MAX_LENGTH)
    throw new RoutingInputError(`--tls-ca-file must hold at most ${TLS_CA_MAX_LENGTH} characters of certificates (got ${normal.length})`);
  return normal;
}

/** The name a carrier's certificate must be issued to: a DNS name (SNI carries no IP address). */
export function checkTlsServerName(name: string): string {
  if (!SERVER_NAME.test(name)) throw new RoutingInputError(`--tls-server-name must be a DNS name (got "${name}")`);
  return name;
}

/** Subject, SHA-256 fingerprint and end of validity of each certificate of a stored CA bundle. */
export function summariseTlsCa(pem: string): TlsCaSummary[] {
  return (pem.match(CERTIFICATE_BLOCK) ?? []).map((block) => {
    const certificate = new X509Certificate(block);
    return { subject: certificate.subject.replace(/\n/g, ', '), sha256: certificate.fingerprint256, notAfter: new Date(certificate.validTo).toISOString() };
  });
}
