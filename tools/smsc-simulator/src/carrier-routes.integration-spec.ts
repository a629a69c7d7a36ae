// The carrier lib's route → SMSC selection against two SMSC simulators started in this process.
import { CarrierRoutes, SMPP_CONNECTION_DEFAULTS, TrafficPolicy, type DeliveryReceipt, type OutgoingPart } from '@mp/carrier';
import { eventually } from '@mp/testing';
import { startSmscSimulator, type RunningSmscSimulator } from './simulator';

describe('CarrierRoutes with two SMSC simulators', () => {
  let main: RunningSmscSimulator;
  let premium: RunningSmscSimulator;
  let carriers: CarrierRoutes;
  const receipts: DeliveryReceipt[] = [];

  const target = (smsc: RunningSmscSimulator) => ({ host: smsc.host, port: smsc.smppPort, systemId: 'routes-test', password: 'secret' });
  const part = (destination: string, text: string): OutgoingPart => ({
    source: 'Acme',
    destination,
    dataCoding: 0,
    udh: null,
    payload: Buffer.from(text, 'latin1'),
    userMessageReference: Math.floor(Math.random() * 0x10000),
    registeredDelivery: true,
  });
  const inbox = async (smsc: RunningSmscSimulator, to: string) =>
    (await (await fetch(`http://${smsc.host}:${smsc.httpPort}/messages?to=${encodeURIComponent(to)}`)).json()) as { text: string }[];

  beforeAll(async () => {
    main = await startSmscSimulator({ smppPort: 0, httpPort: 0, receiptDelayMs: 20 });
    premium = await startSmscSimulator({ smppPort: 0, httpPort: 0, receiptDelayMs: 20 });
    carriers = new CarrierRoutes({
      defaultSmsc: target(main),
      routes: { premium: target(premium) },
      binds: 2,
      connection: { ...SMPP_CONNECTION_DEFAULTS, responseTimeoutMs: 2_000, traffic: new TrafficPolicy() },
    });
    carriers.onReceipt((receipt) => receipts.push(receipt));
    carriers.connect(() => undefined);
    await eventually(() => carriers.isBound(), Boolean, 5_000);
  });
  afterAll(async () => {
    await carriers.close();
    await Promise.all([main.stop(), premium.stop()]);
  });

  it('sends a route with an SMSC of its own there, and every other route to the default SMSC', async () => {
    const outcomes = await Promise.all([
      carriers.submit('premium', part('+447700900201', 'premium text')),
      carriers.submit('auto', part('+447700900202', 'auto text')),
      carriers.submit('standard', part('+447700900203', 'standard text')),
    ]);
    expect(outcomes.every((outcome) => outcome.ok)).toBe(true);
    expect(await inbox(premium, '+447700900201')).toEqual([expect.objectContaining({ text: 'premium text' })]);
    expect(await inbox(main, '+447700900201')).toEqual([]);
    expect(await inbox(main, '+447700900202')).toEqual([expect.objectContaining({ text: 'auto text' })]);
    expect(await inbox(main, '+447700900203')).toEqual([expect.objectContaining({ text: 'standard text' })]);
    expect(await inbox(premium, '+447700900202')).toEqual([]);
  });

  it('hands receipts from every SMSC to the same listeners', async () => {
    const sent = await Promise.all([carriers.submit('premium', part('+447700900211', 'one')), carriers.submit('auto', part('+447700900212', 'two'))]);
    const ids = sent.map((outcome) => (outcome.ok ? outcome.carrierMessageId : ''));
    const seen = await eventually(
      () => receipts.map((r) => r.carrierMessageId),
      (list) => ids.every((id) => list.includes(id)),
      5_000,
    );
    expect(seen).toEqual(expect.arrayContaining(ids));
  });
});
