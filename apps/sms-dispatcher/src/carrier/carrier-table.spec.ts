import { ConfigError, loadConfig } from '@mp/config';
import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { carrierTable, environmentCarriers, type CarrierRecord } from './carrier-table';
import { smscTransport } from './smsc-transport';

// Through the real loader, from the variables an operator sets: a config built by hand once hid
// that the loader never read the optional SMSC_STANDARD_* / SMSC_PREMIUM_* variables.
describe('the carriers of CARRIERS_FROM=environment', () => {
  const config = (env: Record<string, string> = {}) =>
    loadConfig(SmsDispatcherEnv, { SMSC_HOST: 'smsc.example', SMSC_PORT: '2775', SMSC_SYSTEM_ID: 'acme', SMSC_PASSWORD: 'pw', ...env });
  const table = (env: Record<string, string> = {}) => {
    const loaded = config(env);
    const { carriers, routes } = environmentCarriers(loaded);
    return carrierTable(carriers, routes, smscTransport({ ...loaded, SMSC_TLS: true }));
  };
  const targets = (env: Record<string, string> = {}) => Object.fromEntries(table(env).binds.map((spec) => [spec.name, spec.target]));
  const carrierOf = (env: Record<string, string>, route: string) =>
    table(env)
      .candidates('+447700900123', route as 'auto')
      .map((e) => e.carrierId);

  it('sends every route to the one SMSC when no route has its own', () => {
    expect(targets()).toEqual({ default: { host: 'smsc.example', port: 2775, systemId: 'acme', password: 'pw' } });
    for (const route of ['auto', 'standard', 'premium']) expect(carrierOf({}, route)).toEqual(['default']);
  });

  it("gives a route its own SMSC, taking what it does not set from the default SMSC's", () => {
    const env = { SMSC_PREMIUM_HOST: 'premium.example', SMSC_PREMIUM_SYSTEM_ID: 'acme-premium' };
    expect(targets(env)['premium']).toEqual({ host: 'premium.example', port: 2775, systemId: 'acme-premium', password: 'pw' });
    expect(carrierOf(env, 'premium')).toEqual(['premium']);
    expect(carrierOf(env, 'standard')).toEqual(['default']);
    expect(carrierOf(env, 'auto')).toEqual(['default']);
  });

  it('gives standard and premium each their own when both are set', () => {
    const env = {
      SMSC_STANDARD_HOST: 'std.example',
      SMSC_STANDARD_PORT: '2800',
      SMSC_STANDARD_SYSTEM_ID: 'acme-std',
      SMSC_STANDARD_PASSWORD: 'std-pw',
      SMSC_PREMIUM_HOST: 'prm.example',
    };
    expect(targets(env)).toEqual({
      default: { host: 'smsc.example', port: 2775, systemId: 'acme', password: 'pw' },
      standard: { host: 'std.example', port: 2800, systemId: 'acme-std', password: 'std-pw' },
      premium: { host: 'prm.example', port: 2775, systemId: 'acme', password: 'pw' },
    });
    expect(carrierOf(env, 'standard')).toEqual(['standard']);
  });

  it('gives a route no SMSC of its own without a host, whatever else of it is set', () => {
    expect(Object.keys(targets({ SMSC_STANDARD_PORT: '2800', SMSC_PREMIUM_PASSWORD: 'x' }))).toEqual(['default']);
  });

  it('reaches the SMSC and every route of its own over TLS with SMSC_TLS, never plain TCP for one of them', () => {
    const all = targets({ SMSC_TLS: 'true', SMSC_TLS_SERVERNAME: 'smpp.carrier.example', SMSC_PREMIUM_HOST: 'premium.example' });
    const transport = { tls: true, rejectUnauthorized: true, servername: 'smpp.carrier.example' };
    expect(all['default']?.transport).toEqual(transport);
    expect(all['premium']?.transport).toEqual(transport);
  });

  it('refuses a bad per-route value by name', () => {
    expect(() => config({ SMSC_STANDARD_HOST: 'std.example', SMSC_STANDARD_PORT: '70000' })).toThrow(ConfigError);
    expect(() => config({ SMSC_STANDARD_HOST: 'std.example', SMSC_STANDARD_PORT: '70000' })).toThrow('SMSC_STANDARD_PORT="70000"');
  });

  it('binds with SMPP_BINDS, SMPP_WINDOW and SMPP_MAX_PER_SECOND', () => {
    const [spec] = table({ SMPP_BINDS: '3', SMPP_WINDOW: '20', SMPP_MAX_PER_SECOND: '100' }).binds;
    expect(spec).toMatchObject({ name: 'default', binds: 3, windowSize: 20, maxPerSecond: 100 });
  });
});

describe('carrierTable from the routing tables', () => {
  const carrier = (name: string, over: Partial<CarrierRecord> = {}): CarrierRecord => ({
    name,
    host: `${name}.example`,
    port: 2775,
    systemId: name,
    password: 'pw',
    binds: 1,
    window: 10,
    maxPerSecond: 0,
    tls: false,
    enabled: true,
    ...over,
  });
  const route = (prefix: string, name: string, cost: string | null, over: object = {}) => ({
    prefix,
    route: 'auto',
    carrier: name,
    priority: 1,
    cost,
    weight: null,
    ...over,
  });
  const tls = { tls: true as const, rejectUnauthorized: true, servername: 'smpp.example' };

  it('binds enabled carriers only, a TLS one with the TLS transport', () => {
    const table = carrierTable([carrier('a', { tls: true }), carrier('b', { enabled: false })], [], tls);
    expect(table.binds.map((spec) => spec.name)).toEqual(['a']);
    expect(table.binds[0].target.transport).toEqual(tls);
    expect(table.enabled.get('b')).toBe(false);
  });

  it("reaches a TLS carrier with its own CA and server name where it has them, SMSC_TLS_*'s otherwise", () => {
    const shared = { tls: true as const, rejectUnauthorized: false, ca: 'ENV CA', servername: 'smpp.example' };
    const table = carrierTable(
      [
        carrier('own', { tls: true, tlsCa: 'OWN CA', tlsServerName: 'smsc.own.example' }),
        carrier('ca-only', { tls: true, tlsCa: 'OWN CA', tlsServerName: null }),
        carrier('name-only', { tls: true, tlsServerName: 'smsc.named.example' }),
        carrier('default', { tls: true, tlsCa: null, tlsServerName: null }),
        carrier('plain', { tlsCa: 'OWN CA' }),
      ],
      [],
      shared,
    );
    const transports = Object.fromEntries(table.binds.map((spec) => [spec.name, spec.target.transport]));
    // A carrier's own CA is verified even where SMSC_TLS_REJECT_UNAUTHORIZED=false.
    expect(transports['own']).toEqual({ tls: true, rejectUnauthorized: true, ca: 'OWN CA', servername: 'smsc.own.example' });
    expect(transports['ca-only']).toEqual({ tls: true, rejectUnauthorized: true, ca: 'OWN CA', servername: 'smpp.example' });
    expect(transports['name-only']).toEqual({ tls: true, rejectUnauthorized: false, ca: 'ENV CA', servername: 'smsc.named.example' });
    expect(transports['default']).toBe(shared);
    expect(transports['plain']).toBeUndefined();
  });

  it("changes a carrier's bind target when its CA changes, which is what makes CarrierBindSet reopen its binds", () => {
    const target = (tlsCa: string | null) => carrierTable([carrier('a', { tls: true, tlsCa })], [], tls).binds[0].target;
    expect(JSON.stringify(target('CA 1'))).not.toEqual(JSON.stringify(target('CA 2')));
    expect(JSON.stringify(target(null))).not.toEqual(JSON.stringify(target('CA 1')));
    expect(JSON.stringify(target('CA 1'))).toEqual(JSON.stringify(target('CA 1')));
  });

  it('gives the longest prefix’s carriers with their exact cost', () => {
    const table = carrierTable([carrier('a'), carrier('b')], [route('+', 'a', '0.0100'), route('+44', 'b', '0.0040'), route('+44', 'a', '0.0050')], tls);
    expect(table.candidates('+447700900123', 'auto').map((e) => [e.carrierId, e.cost])).toEqual([
      ['b', 40n],
      ['a', 50n],
    ]);
    expect(table.candidates('+33612345678', 'auto').map((e) => e.carrierId)).toEqual(['a']);
  });
});
