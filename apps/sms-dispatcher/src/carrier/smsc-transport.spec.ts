import { ConfigError, loadConfig } from '@mp/config';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { smscTransport } from './smsc-transport';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const files: Record<string, string> = { '/etc/carrier/ca.pem': PEM, '/etc/carrier/key.pem': '-----BEGIN PRIVATE KEY-----\n' };
const readFile = (path: string): string => {
  const content = files[path];
  if (content === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
  return content;
};
const transport = (env: Record<string, string>) => smscTransport(loadConfig(SmsDispatcherEnv, env), readFile);

describe('smscTransport', () => {
  it('is plain TCP unless SMSC_TLS is true', () => {
    expect(transport({})).toEqual({ tls: false });
    expect(transport({ SMSC_TLS: 'false', SMSC_TLS_CA: '/etc/carrier/ca.pem' })).toEqual({ tls: false });
  });

  it("verifies the SMSC's certificate by default, against the CA file's certificates when one is named", () => {
    expect(transport({ SMSC_TLS: 'true' })).toEqual({ tls: true, rejectUnauthorized: true });
    expect(transport({ SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/ca.pem', SMSC_TLS_SERVERNAME: 'smpp.carrier.example' })).toEqual({
      tls: true,
      rejectUnauthorized: true,
      ca: PEM,
      servername: 'smpp.carrier.example',
    });
  });

  it('accepts any certificate only when SMSC_TLS_REJECT_UNAUTHORIZED is false', () => {
    expect(transport({ SMSC_TLS: 'true', SMSC_TLS_REJECT_UNAUTHORIZED: 'false' })).toMatchObject({ rejectUnauthorized: false });
  });

  it('refuses to start with a CA file that is missing or holds no certificate, naming it', () => {
    expect(() => transport({ SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/missing.pem' })).toThrow(ConfigError);
    expect(() => transport({ SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/missing.pem' })).toThrow('SMSC_TLS_CA="/etc/carrier/missing.pem": cannot be read');
    expect(() => transport({ SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/key.pem' })).toThrow('SMSC_TLS_CA="/etc/carrier/key.pem": holds no PEM certificate');
  });

  it('refuses a flag that is not true or false by name', () => {
    expect(() => loadConfig(SmsDispatcherEnv, { SMSC_TLS: 'yes' })).toThrow('SMSC_TLS');
  });
});
