import { generate } from 'selfsigned';
import { checkCarrierChanges, checkCarrierSettings, type CarrierSettings } from './carrier-settings';
import { checkTlsCa, checkTlsServerName, summariseTlsCa } from './carrier-tls';
import { RoutingInputError } from './routing-errors';

const carrier: CarrierSettings = {
  name: 'acme-uk',
  host: 'smpp.acme.example',
  port: 2775,
  systemId: 'acme',
  password: 's3cret',
  systemType: null,
  binds: 1,
  window: 50,
  maxPerSecond: 0,
  tls: true,
};

const selfSigned = async (commonName: string) => {
  const pems = await generate([{ name: 'commonName', value: commonName }], { keyType: 'ec', algorithm: 'sha256' });
  return { cert: pems.cert, key: pems.private };
};

describe("a carrier's TLS CA and server name", () => {
  let ca: { cert: string; key: string };
  let other: { cert: string; key: string };

  beforeAll(async () => {
    [ca, other] = await Promise.all([selfSigned('acme-ca'), selfSigned('acme-intermediate')]);
  });

  it('keeps the certificates of a bundle and drops what surrounds them', () => {
    const bundle = `# Acme's CAs\n${ca.cert}\nsome comment\n${other.cert}`;
    const checked = checkTlsCa(bundle);
    expect(checked.match(/-----BEGIN CERTIFICATE-----/g)).toHaveLength(2);
    expect(checked).not.toContain('comment');
    expect(summariseTlsCa(checked).map((c) => c.subject)).toEqual(['CN=acme-ca', 'CN=acme-intermediate']);
    const [summary] = summariseTlsCa(checked);
    expect(summary.sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new Date(summary.notAfter).getTime()).toBeGreaterThan(Date.now());
  });

  it.each([
    ['no certificate', 'hello', /holds no PEM certificate/],
    ['a private key', () => `${ca.cert}${ca.key}`, /holds a private key/],
    ['a broken certificate', '-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n', /certificate 1 of 1 is not a valid X\.509 certificate/],
  ])('refuses a file with %s, naming the option', (_what, text, message) => {
    const pem = typeof text === 'function' ? text() : text;
    expect(() => checkTlsCa(pem)).toThrow(message);
    expect(() => checkTlsCa(pem)).toThrow(RoutingInputError);
  });

  it('refuses a bundle beyond 64 KiB', () => {
    expect(() => checkTlsCa(ca.cert.repeat(200))).toThrow(/at most 65536 characters/);
  });

  it('takes a DNS name as the server name, not an IP address or junk', () => {
    expect(checkTlsServerName('smsc.acme.example')).toBe('smsc.acme.example');
    expect(checkTlsServerName('localhost')).toBe('localhost');
    for (const bad of ['', 'smsc acme', 'smsc.acme.example/x', 'a'.repeat(254)])
      expect(() => checkTlsServerName(bad)).toThrow(/--tls-server-name must be a DNS name/);
  });

  it('checks and normalises them with the other settings; null clears, absent keeps', () => {
    const created = checkCarrierSettings({ ...carrier, tlsCa: `junk\n${ca.cert}`, tlsServerName: 'smsc.acme.example' });
    expect(created.tlsCa).toBe(checkTlsCa(ca.cert));
    expect(created.tlsServerName).toBe('smsc.acme.example');
    expect(checkCarrierChanges({ tlsCa: null, tlsServerName: null })).toEqual({ tlsCa: null, tlsServerName: null });
    expect(checkCarrierChanges({ port: 2800 })).toEqual({ port: 2800 });
    expect(() => checkCarrierChanges({ tlsCa: 'nothing' })).toThrow(RoutingInputError);
    expect(() => checkCarrierSettings({ ...carrier, tlsServerName: 'a b' })).toThrow(/--tls-server-name/);
  });
});
