import { ConfigError, loadConfig } from '@mp/config';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { smscTargets } from './carrier-pool.service';

// Through the real loader, from the variables an operator sets: a config built by hand once hid
// that the loader never read the optional SMSC_STANDARD_* / SMSC_PREMIUM_* variables.
describe('smscTargets', () => {
  const targets = (env: Record<string, string> = {}) =>
    smscTargets(loadConfig(SmsDispatcherEnv, { SMSC_HOST: 'smsc.example', SMSC_PORT: '2775', SMSC_SYSTEM_ID: 'acme', SMSC_PASSWORD: 'pw', ...env }));

  it('sends every route to the one SMSC when no route has its own', () => {
    expect(targets()).toEqual({ defaultSmsc: { host: 'smsc.example', port: 2775, systemId: 'acme', password: 'pw' }, routes: {} });
  });

  it("gives a route its own SMSC, taking what it does not set from the default SMSC's", () => {
    const { routes } = targets({ SMSC_PREMIUM_HOST: 'premium.example', SMSC_PREMIUM_SYSTEM_ID: 'acme-premium' });
    expect(routes).toEqual({ premium: { host: 'premium.example', port: 2775, systemId: 'acme-premium', password: 'pw' } });
  });

  it('gives standard and premium each their own when both are set', () => {
    const { routes } = targets({
      SMSC_STANDARD_HOST: 'std.example',
      SMSC_STANDARD_PORT: '2800',
      SMSC_STANDARD_SYSTEM_ID: 'acme-std',
      SMSC_STANDARD_PASSWORD: 'std-pw',
      SMSC_PREMIUM_HOST: 'prm.example',
    });
    expect(routes).toEqual({
      standard: { host: 'std.example', port: 2800, systemId: 'acme-std', password: 'std-pw' },
      premium: { host: 'prm.example', port: 2775, systemId: 'acme', password: 'pw' },
    });
  });

  it('gives a route no SMSC of its own without a host, whatever else of it is set', () => {
    expect(targets({ SMSC_STANDARD_PORT: '2800', SMSC_PREMIUM_PASSWORD: 'x' }).routes).toEqual({});
  });

  it('reaches the SMSC and every route of its own over TLS with SMSC_TLS, never plain TCP for one of them', () => {
    const { defaultSmsc, routes } = targets({ SMSC_TLS: 'true', SMSC_TLS_SERVERNAME: 'smpp.carrier.example', SMSC_PREMIUM_HOST: 'premium.example' });
    const transport = { tls: true, rejectUnauthorized: true, servername: 'smpp.carrier.example' };
    expect(defaultSmsc.transport).toEqual(transport);
    expect(routes['premium']?.transport).toEqual(transport);
  });

  it('refuses a bad per-route value by name', () => {
    expect(() => targets({ SMSC_STANDARD_HOST: 'std.example', SMSC_STANDARD_PORT: '70000' })).toThrow(ConfigError);
    expect(() => targets({ SMSC_STANDARD_HOST: 'std.example', SMSC_STANDARD_PORT: '70000' })).toThrow('SMSC_STANDARD_PORT="70000"');
  });
});
