import { SmsDispatcherEnv } from '../sms-dispatcher.env';
import { smscTargets } from './carrier-pool.service';

describe('smscTargets', () => {
  const config = (overrides: Partial<SmsDispatcherEnv> = {}) =>
    Object.assign(new SmsDispatcherEnv(), { SMSC_HOST: 'smsc.example', SMSC_PORT: 2775, SMSC_SYSTEM_ID: 'acme', SMSC_PASSWORD: 'pw' }, overrides);

  it('sends every route to the one SMSC when no route has its own', () => {
    expect(smscTargets(config())).toEqual({ defaultSmsc: { host: 'smsc.example', port: 2775, systemId: 'acme', password: 'pw' }, routes: {} });
  });

  it("gives a route its own SMSC, taking what it does not set from the default SMSC's", () => {
    const { routes } = smscTargets(config({ SMSC_PREMIUM_HOST: 'premium.example', SMSC_PREMIUM_SYSTEM_ID: 'acme-premium' }));
    expect(routes).toEqual({ premium: { host: 'premium.example', port: 2775, systemId: 'acme-premium', password: 'pw' } });
  });

  it('gives standard and premium each their own when both are set', () => {
    const { routes } = smscTargets(config({ SMSC_STANDARD_HOST: 'std.example', SMSC_STANDARD_PORT: 2800, SMSC_PREMIUM_HOST: 'prm.example' }));
    expect(Object.keys(routes).sort()).toEqual(['premium', 'standard']);
    expect(routes['standard'].port).toBe(2800);
  });
});
