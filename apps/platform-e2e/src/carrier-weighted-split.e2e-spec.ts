import {
  allDelivered,
  copiesPerNumber,
  handsets,
  notOnce,
  numbersUnder,
  perCarrier,
  sendCampaign,
  startCarrierFleet,
  stats,
  type CarrierFleet,
} from './support/carrier-fleet';

/** Recipients of the weighted split: enough for a tight bound (see the case). */
const SPLIT = 2_000;
/** Recipients of the burst that meets a throttling carrier. */
const BURST = 400;
/** What the throttling simulator takes per bind per sliding second; the dispatcher sends hundreds. */
const THROTTLE_PER_SECOND = 10;
/** Resubmits to a throttling carrier before the next one is tried (CARRIER_RETRY_BUDGET). */
const RETRY_BUDGET = 1;

/**
 * Issue 31 over real SMPP: a weighted split lands near its weights, and a carrier that throttles
 * spills its traffic over to the next one (decisions 0055 and 0057). Three SMSC simulators:
 * `heavy` and `light` share +3361 by weights 70/30; `narrow` throttles and is the cheapest for
 * +3362, `light` the next.
 */
describe('carrier weighted split and throttling spill-over', () => {
  let fleet: CarrierFleet;
  const simulator = (name: string) => fleet.simulators[name];

  beforeAll(async () => {
    fleet = await startCarrierFleet('carrier-weighted-split', {
      carriers: {
        heavy: {},
        light: {},
        narrow: { simulator: { SMSC_MAX_RATE_PER_SECOND: String(THROTTLE_PER_SECOND) } },
      },
      routes: [
        ['--prefix', '+3361', '--carrier', 'heavy', '--priority', '1', '--weight', '70'],
        ['--prefix', '+3361', '--carrier', 'light', '--priority', '1', '--weight', '30'],
        ['--prefix', '+3362', '--carrier', 'narrow', '--priority', '1', '--cost', '0.001'],
        ['--prefix', '+3362', '--carrier', 'light', '--priority', '2', '--cost', '0.002'],
      ],
      balance: '100',
      // Said here, not left to the default: the throttling case counts the resubmits it allows.
      stackEnv: { CARRIER_RETRY_BUDGET: String(RETRY_BUDGET) },
    });
  }, 180_000);
  afterAll(async () => {
    await fleet?.stop();
  });

  it('splits a prefix between two carriers within a few percentage points of their weights', async () => {
    const numbers = numbersUnder('+3361', SPLIT);
    const campaign = await sendCampaign(fleet.api, numbers, 'Weighted split');
    const parts = await allDelivered(fleet.db, campaign, SPLIT);
    const recorded = perCarrier(parts);
    expect(Object.keys(recorded).sort()).toEqual(['heavy', 'light']);
    expect(recorded['heavy'] + recorded['light']).toBe(SPLIT);

    // Each part's carrier is drawn independently with p = 0.7, so heavy's share has a standard
    // deviation of sqrt(0.7 × 0.3 / 2000) = 1.02 percentage points: 5 points is 4.9 sigma, a
    // chance of about one in a million of a correct dispatcher failing this.
    const heavyShare = (100 * recorded['heavy']) / SPLIT;
    expect(Math.abs(heavyShare - 70)).toBeLessThanOrEqual(5);

    // The handsets agree with the parts: each number got its one copy from the carrier recorded.
    const heavy = (await handsets(simulator('heavy'))).filter((m) => m.to.startsWith('+3361'));
    const light = (await handsets(simulator('light'))).filter((m) => m.to.startsWith('+3361'));
    expect({ heavy: heavy.length, light: light.length }).toEqual({ heavy: recorded['heavy'], light: recorded['light'] });
    expect(notOnce(numbers, copiesPerNumber(heavy, light))).toEqual({});
    const { rows } = await fleet.db.query<{ recipient: string; carrier: string }>(
      `SELECT m.recipient, p.carrier FROM messages m JOIN message_parts p ON p.message_id = m.id WHERE m.campaign_id = $1`,
      [campaign],
    );
    const onHeavy = new Set(heavy.map((m) => m.to));
    expect(rows.filter((row) => (row.carrier === 'heavy') !== onHeavy.has(row.recipient))).toEqual([]);
  });

  it('spills parts a throttling carrier refuses over to the next carrier, each delivered once, resubmitted to the throttling carrier within the budget only', async () => {
    const before = { narrow: await stats(simulator('narrow')), light: await stats(simulator('light')) };
    const numbers = numbersUnder('+3362', BURST);
    const campaign = await sendCampaign(fleet.api, numbers, 'Burst');
    const parts = await allDelivered(fleet.db, campaign, BURST);
    const recorded = perCarrier(parts);
    const narrow = await stats(simulator('narrow'));
    const light = await stats(simulator('light'));
    const delta = (after: number, was: number) => after - was;

    // narrow took some and throttled others (far more than 10 a second arrive at once) ...
    expect(recorded['narrow']).toBeGreaterThan(0);
    expect(recorded['light']).toBeGreaterThan(0);
    expect(recorded['narrow'] + recorded['light']).toBe(BURST);
    expect(narrow.throttled).toBeGreaterThan(0);
    // ... and, as the cheapest healthy carrier (throttling does not degrade one, decision 0055),
    // was tried first with every part, each up to 1 + RETRY_BUDGET times and never again once the
    // part moved on. So each part light took was throttled by narrow exactly 1 + RETRY_BUDGET
    // times, and a part narrow took was throttled at most RETRY_BUDGET times before.
    const sent = {
      narrowSubmits: delta(narrow.submits, before.narrow.submits),
      narrowAccepted: delta(narrow.accepted, before.narrow.accepted),
      narrowThrottled: delta(narrow.throttled, before.narrow.throttled),
      lightSubmits: delta(light.submits, before.light.submits),
      lightAccepted: delta(light.accepted, before.light.accepted),
    };
    expect(sent).toEqual({
      narrowSubmits: sent.narrowAccepted + sent.narrowThrottled,
      narrowAccepted: recorded['narrow'],
      narrowThrottled: expect.any(Number),
      lightSubmits: recorded['light'],
      lightAccepted: recorded['light'],
    });
    const throttledBeforeSpilling = (1 + RETRY_BUDGET) * recorded['light'];
    expect(sent.narrowThrottled).toBeGreaterThanOrEqual(throttledBeforeSpilling);
    expect(sent.narrowThrottled).toBeLessThanOrEqual(throttledBeforeSpilling + RETRY_BUDGET * recorded['narrow']);
    expect({ narrow: narrow.duplicates_dropped, light: light.duplicates_dropped, rejected: narrow.rejected + light.rejected }).toEqual({
      narrow: 0,
      light: 0,
      rejected: 0,
    });

    // One copy per number over both handsets, from the carrier recorded on its part.
    const fromNarrow = (await handsets(simulator('narrow'))).filter((m) => m.to.startsWith('+3362'));
    const fromLight = (await handsets(simulator('light'))).filter((m) => m.to.startsWith('+3362'));
    expect({ narrow: fromNarrow.length, light: fromLight.length }).toEqual({ narrow: recorded['narrow'], light: recorded['light'] });
    expect(notOnce(numbers, copiesPerNumber(fromNarrow, fromLight))).toEqual({});
  });

  it('charged each message of both campaigns once, refunding nothing', async () => {
    const { rows } = await fleet.db.query(
      `SELECT (SELECT sum(cost)::text FROM messages) AS cost,
              (SELECT count(*)::int FROM messages) AS messages,
              (SELECT (-sum(amount))::text FROM ledger_entries WHERE kind = 'charge') AS charged,
              (SELECT count(*)::int FROM ledger_entries WHERE kind = 'refund') AS refunds,
              (SELECT (100 - balance)::text FROM balances) AS spent`,
    );
    // 2,400 one-part messages at the catch-all price of 0.0100.
    expect(rows[0]).toEqual({ cost: '24.0000', messages: SPLIT + BURST, charged: '24.0000', refunds: 0, spent: '24.0000' });
  });
});
