import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

/** A certificate and its private key, PEM. */
export interface TlsCredentials {
  cert: string;
  key: string;
}

const VALID_DAYS = 30;

/**
 * A self-signed certificate for the host the simulator listens on (and localhost): what a client
 * trusts by taking the certificate itself as its CA. EC P-256, as it is made at every start.
 */
export async function selfSignedCredentials(host: string, now = new Date()): Promise<TlsCredentials> {
  const names = new Set([host, 'localhost', '127.0.0.1']);
  const altNames = [...names].map((name) => (isIP(name) === 0 ? { type: 2 as const, value: name } : { type: 7 as const, ip: name }));
  const pems = await generate([{ name: 'commonName', value: 'smsc-simulator' }], {
    keyType: 'ec',
    algorithm: 'sha256',
    notBeforeDate: new Date(now.getTime() - 60_000),
    notAfterDate: new Date(now.getTime() + VALID_DAYS * 24 * 3600_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return { cert: pems.cert, key: pems.private };
}

/** The certificate and key from their files, or when neither is given a self-signed pair for host. */
export async function tlsCredentials(host: string, certFile: string, keyFile: string): Promise<{ credentials: TlsCredentials; generated: boolean }> {
  if ((certFile === '') !== (keyFile === '')) throw new Error('SMSC_TLS_CERT and SMSC_TLS_KEY go together: set both, or neither for a self-signed certificate');
  if (certFile === '') return { credentials: await selfSignedCredentials(host), generated: true };
  const [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  return { credentials: { cert, key }, generated: false };
}
