import { admin, eventually } from '@mp/testing';
import { campaignParts, numbersUnder, perCarrier, sendCampaign, startCarrierFleet, type CarrierFleet } from './support/carrier-fleet';

/** Undelivered receipts that make `lossy` degraded: over the tracker's minimum of 50 (DEFAULT_DEGRADATION_THRESHOLDS). */
const FIRST = 60;
/** Sends after the collapse: a degraded carrier gets probe traffic only (1% per part). */
const AFTER = 200;

interface ListedHealth {
  degraded: boolean;
  degraded_by: number;
  delivered_share: number | null;
  receipts: number;
}

/**
 * Issue 31 item 4 over real SMPP: a carrier whose delivered share collapses is marked degraded,
 * shown so by `carrier:list`, and routes avoid it but for probe traffic (decisions 0055, 0057,
 * 0060). `lossy` is the cheapest for +3364 but its receipts all say UNDELIV; `solid` costs more.
 */
describe('a carrier whose delivered share collapses', () => {
  let fleet: CarrierFleet;

  beforeAll(async () => {
    fleet = await startCarrierFleet('carrier-degraded', {
      carriers: { lossy: { simulator: { SMSC_FAILURE_RATE: '1' } }, solid: {} },
      routes: [
        ['--prefix', '+3364', '--carrier', 'lossy', '--priority', '1', '--cost', '0.001'],
        ['--prefix', '+3364', '--carrier', 'solid', '--priority', '1', '--cost', '0.002'],
      ],
      balance: '100',
    });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  const healthOf = async (name: string): Promise<ListedHealth | null> => {
    const listed = (await admin(['carrier:list'], fleet.env)) as unknown as { carriers: { name: string; health: ListedHealth | null }[] };
    return listed.carriers.find((carrier) => carrier.name === name)?.health ?? null;
  };

  it('is marked degraded and gets probe traffic only, the rest going to the dearer healthy carrier', async () => {
    const first = await sendCampaign(fleet.api, numbersUnder('+33640', FIRST), 'Before the collapse');
    // Least cost while healthy: every part goes to lossy, and every receipt says undelivered.
    const settled = await eventually(
      () => campaignParts(fleet.db, first),
      (parts) => parts.messages === FIRST && parts.byStatus['undelivered lossy'] === FIRST,
      120_000,
    );
    expect(settled.byStatus).toEqual({ 'undelivered lossy': FIRST });

    // The dispatcher judges its carriers every 10 s and publishes what it judged every 5 s.
    const health = await eventually(
      () => healthOf('lossy'),
      (seen) => seen?.degraded === true,
      60_000,
    );
    expect(health).toMatchObject({ degraded: true, degraded_by: 1, delivered_share: 0 });
    expect(health?.receipts).toBeGreaterThanOrEqual(FIRST);

    const after = await sendCampaign(fleet.api, numbersUnder('+33641', AFTER), 'After the collapse');
    const parts = await eventually(
      () => campaignParts(fleet.db, after),
      (seen) => seen.messages === AFTER && Object.keys(seen.byStatus).every((key) => key.startsWith('delivered ') || key.startsWith('undelivered ')),
      120_000,
    );
    const counts = perCarrier(parts);
    // Probes are drawn at 1% a part: about 2 of 200, and more than 20 has a chance far below one
    // in a billion, while a dispatcher that ignored the flag would send all 200 to lossy.
    expect(counts['solid']).toBeGreaterThanOrEqual(AFTER - 20);
    expect((counts['solid'] ?? 0) + (counts['lossy'] ?? 0)).toBe(AFTER);
    expect(parts.byStatus['delivered solid']).toBe(counts['solid']);
  });
});
