import { CarrierRoutes } from './carrier-routes';
import { NO_RESPONSE } from './command-status';
import { SMPP_CONNECTION_DEFAULTS } from './smpp-connection';
import type { OutgoingPart, SubmitOutcome } from './submit-sm';
import { TrafficPolicy } from './traffic-policy';

const connection = { ...SMPP_CONNECTION_DEFAULTS, windowSize: 7, traffic: new TrafficPolicy() };
const smsc = (host: string) => ({ host, port: 2775, systemId: 'acme', password: 'pw' });
const part: OutgoingPart = {
  source: 'Acme',
  destination: '+447700900123',
  dataCoding: 0,
  udh: null,
  payload: Buffer.from('hi'),
  userMessageReference: 1,
  registeredDelivery: true,
};

describe('CarrierRoutes, as metrics see it', () => {
  const carriers = () => new CarrierRoutes({ defaultSmsc: smsc('smsc.example'), routes: { premium: smsc('premium.example') }, binds: 2, connection });

  it('lists every bind’s window by SMSC and bind number', () => {
    expect(carriers().windows()).toEqual([
      { smsc: 'default', bind: 1, inUse: 0, size: 7 },
      { smsc: 'default', bind: 2, inUse: 0, size: 7 },
      { smsc: 'premium', bind: 1, inUse: 0, size: 7 },
      { smsc: 'premium', bind: 2, inUse: 0, size: 7 },
    ]);
  });

  it('tells the listeners each outcome with the SMSC that took the part (default for a route without one) and the bind', async () => {
    const routes = carriers();
    await routes.close();
    const seen: [string, number, SubmitOutcome][] = [];
    routes.onSubmitAnswered((name, bind, outcome) => seen.push([name, bind, outcome]));
    const outcomes = [await routes.submit('premium', part), await routes.submit('standard', part), await routes.submit('premium', part)];
    expect(seen.map(([name, bind, outcome]) => [name, bind, outcome.ok ? 'ok' : outcome.commandStatus])).toEqual([
      ['premium', 1, NO_RESPONSE],
      ['default', 1, NO_RESPONSE],
      ['premium', 2, NO_RESPONSE],
    ]);
    expect(seen.map(([, , outcome]) => outcome)).toEqual(outcomes);
  });
});
