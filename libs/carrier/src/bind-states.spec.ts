import { CarrierRoutes } from './carrier-routes';
import { SMPP_CONNECTION_DEFAULTS } from './smpp-connection';
import { TrafficPolicy } from './traffic-policy';

const connection = { ...SMPP_CONNECTION_DEFAULTS, traffic: new TrafficPolicy() };

const smsc = (host: string) => ({ host, port: 2775, systemId: 'acme', password: 'pw' });

describe('CarrierRoutes.bindStates', () => {
  it('lists every bind by route and number, idle until connected', () => {
    const carriers = new CarrierRoutes({
      defaultSmsc: smsc('smsc.example'),
      routes: { premium: smsc('premium.example') },
      binds: 2,
      connection,
    });
    expect(carriers.bindStates().map(({ route, bind, target, state }) => [route, bind, target, state])).toEqual([
      ['default', 1, 'smsc.example:2775', 'idle'],
      ['default', 2, 'smsc.example:2775', 'idle'],
      ['premium', 1, 'premium.example:2775', 'idle'],
      ['premium', 2, 'premium.example:2775', 'idle'],
    ]);
  });

  it('tells the listener of each change, with the time each bind entered its state', async () => {
    const carriers = new CarrierRoutes({ defaultSmsc: smsc('smsc.example'), routes: {}, binds: 1, connection });
    const before = carriers.bindStates()[0].since;
    const seen: string[] = [];
    carriers.onBindStateChange(() => seen.push(carriers.bindStates()[0].state));
    await new Promise((resolve) => setTimeout(resolve, 5));
    await carriers.close();
    expect(seen).toEqual(['closing', 'closed']);
    expect(carriers.bindStates()[0].since.getTime()).toBeGreaterThan(before.getTime());
  });
});
