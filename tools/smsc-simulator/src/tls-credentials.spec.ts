import { createPrivateKey, X509Certificate } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSignedCredentials, tlsCredentials } from './tls-credentials';

describe('selfSignedCredentials', () => {
  it('makes a certificate, signed by its own key, for the host, localhost and 127.0.0.1', async () => {
    const { cert, key } = await selfSignedCredentials('smsc.test');
    const certificate = new X509Certificate(cert);
    expect(certificate.issuer).toBe(certificate.subject);
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkPrivateKey(createPrivateKey(key))).toBe(true);
    expect(certificate.checkHost('smsc.test')).toBe('smsc.test');
    expect(certificate.checkHost('localhost')).toBe('localhost');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(certificate.checkHost('other.example')).toBeUndefined();
  });

  it('is valid from (just before) now', async () => {
    const now = new Date('2026-11-26T12:00:00Z');
    const certificate = new X509Certificate((await selfSignedCredentials('127.0.0.1', now)).cert);
    expect(new Date(certificate.validFrom).getTime()).toBeLessThanOrEqual(now.getTime());
    expect(new Date(certificate.validTo).getTime()).toBeGreaterThan(now.getTime());
  });
});

describe('tlsCredentials', () => {
  it('reads the certificate and key from their files when both are given', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'smsc-tls-'));
    writeFileSync(join(folder, 'cert.pem'), 'CERT');
    writeFileSync(join(folder, 'key.pem'), 'KEY');
    expect(await tlsCredentials('127.0.0.1', join(folder, 'cert.pem'), join(folder, 'key.pem'))).toEqual({
      credentials: { cert: 'CERT', key: 'KEY' },
      generated: false,
    });
  });

  it('makes a self-signed pair when neither is given, and refuses one without the other', async () => {
    expect((await tlsCredentials('127.0.0.1', '', '')).generated).toBe(true);
    await expect(tlsCredentials('127.0.0.1', '/etc/smsc/cert.pem', '')).rejects.toThrow('SMSC_TLS_CERT and SMSC_TLS_KEY go together');
  });
});
