import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

interface Handset {
  to: string;
  received_at: string;
}

const CAMPAIGN = 2_000;
/** CAMPAIGN_PACE_WHILE_OTHERS_FLOW of the dispatcher under test: campaign parts a second. */
const PACE = 100;
/** How long single sends keep flowing after the campaign is accepted. */
const OTHERS_FLOW_MS = 3_000;
const SEND_EVERY_MS = 100;

const campaignNumber = (i: number, series = 0) => `+3364${series}${String(i).padStart(6, '0')}`;
const singleNumber = '+33650999999';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * With CAMPAIGN_PACE_WHILE_OTHERS_FLOW set, a campaign goes at that pace while single sends (or
 * OTPs) flow, and at full speed again once they stop; it starts at that pace after a quiet spell;
 * and while it holds, a campaign's batches are made one at a time. Judged by the carrier's own
 * arrival times and the batches' start times.
 */
describe('a campaign paced while other traffic flows', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let company: Company;
  let db: Client;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const received = () => simulatorMessages<Handset>(simulatorUrl);
  const single = () => api.post('/sms/send', { to: singleNumber, message: 'Your order has shipped', from: 'Shop' });
  const sendCampaign = async (size: number, series: number, extra: Record<string, unknown> = {}) => {
    const answer = await api.post('/sms/send-bulk', {
      recipients: Array.from({ length: size }, (_, i) => campaignNumber(i, series)),
      message: 'Clearance: everything must go',
      from: 'Shop',
      ...extra,
    });
    expect(answer.status).toBe(200);
    return (answer.body['data'] as { campaign_id: string }).campaign_id;
  };
  /** Sends a single every SEND_EVERY_MS for OTHERS_FLOW_MS; answers how many. */
  const flowSingles = async () => {
    const flowEnds = Date.now() + OTHERS_FLOW_MS;
    let singles = 0;
    while (Date.now() < flowEnds) {
      expect((await single()).status).toBe(200);
      singles += 1;
      await sleep(SEND_EVERY_MS);
    }
    return singles;
  };
  /** The carrier's arrival times of a series' campaign parts, once all have arrived. */
  const arrivals = async (series: number, size: number) => {
    const prefix = campaignNumber(0, series).slice(0, 6);
    const ours = (list: Handset[]) => list.filter((m) => m.to.startsWith(prefix));
    const all = ours(await eventually(received, (list) => ours(list).length >= size, 120_000));
    expect(new Set(all.map((m) => m.to)).size).toBe(size);
    return all.map((m) => Date.parse(m.received_at)).sort((a, b) => a - b);
  };

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Paced Shop', '100');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    db = new Client({ connectionString: process.env['DATABASE_URL'] });
    await db.connect();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'],
      env: { SMSC_SIMULATOR_PORT: String(httpPort), CAMPAIGN_PACE_WHILE_OTHERS_FLOW: String(PACE) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await db?.end();
  });

  it('keeps to the pace while single sends flow, then drains at full speed', async () => {
    expect((await single()).status).toBe(200);
    await eventually(received, (list) => list.some((m) => m.to === singleNumber), 30_000);

    await sendCampaign(CAMPAIGN, 0);
    const singles = 1 + (await flowSingles());
    const lastSingleAt = await eventually(received, (list) => list.filter((m) => m.to === singleNumber).length >= singles, 30_000).then((list) =>
      Math.max(...list.filter((m) => m.to === singleNumber).map((m) => Date.parse(m.received_at))),
    );
    const campaignTimes = await arrivals(0, CAMPAIGN);

    // While the singles flowed: at most the pace, with a tick's share and a second of slack.
    const firstPart = campaignTimes[0] as number;
    const whileFlowing = campaignTimes.filter((t) => t <= lastSingleAt).length;
    const flowingSeconds = (lastSingleAt - firstPart) / 1000;
    expect(flowingSeconds).toBeGreaterThan(1);
    expect(whileFlowing).toBeLessThanOrEqual(Math.ceil(PACE * (flowingSeconds + 1)));
    // Unpaced, the whole campaign would have gone by then: most of it was still waiting.
    expect(CAMPAIGN - whileFlowing).toBeGreaterThan(CAMPAIGN / 2);
    // Once they stopped the rest went at full speed, much faster than the pace.
    expect(fullSpeedAfter(campaignTimes, lastSingleAt + 1_000)).toBeGreaterThan(PACE * 3);
  }, 240_000);

  it('starts at the pace after a quiet spell, with nothing else flowing, then goes at full speed', async () => {
    await sleep(1_500);
    const campaignId = await sendCampaign(CAMPAIGN, 1);
    const campaignTimes = await arrivals(1, CAMPAIGN);
    // The slow start lasts a second from the first batch's start, and the batch's messages are
    // made in it too (in slices, as while others flow): at most the pace's second of parts then,
    // with slack for a slow machine, against the whole campaign unpaced.
    const { rows } = await db.query<{ started_ms: number }>(
      `SELECT min(extract(epoch FROM started_at) * 1000) AS started_ms FROM campaign_batches WHERE campaign_id = $1`,
      [campaignId],
    );
    const slowStartEnds = Number(rows[0]?.started_ms) + 1_000;
    expect(campaignTimes.filter((t) => t < slowStartEnds).length).toBeLessThanOrEqual(PACE * 1.5);
    expect(fullSpeedAfter(campaignTimes, slowStartEnds)).toBeGreaterThan(PACE * 3);
  }, 240_000);

  it('makes one batch at a time while it holds, once less than a second of parts waits', async () => {
    const size = 1_000;
    const flowing = flowSingles();
    await sleep(3 * SEND_EVERY_MS);
    const campaignId = await sendCampaign(size, 2, { batch_size: PACE });
    await flowing;
    await arrivals(2, size);
    const { rows } = await db.query<{ started_ms: number }>(
      `SELECT extract(epoch FROM started_at) * 1000 AS started_ms FROM campaign_batches WHERE campaign_id = $1 ORDER BY started_at`,
      [campaignId],
    );
    const starts = rows.map((row) => Number(row.started_ms));
    expect(starts).toHaveLength(size / PACE);
    // Unheld, the dispatcher's four campaign workers would make four batches at once. Held, the
    // first batch's second of parts keeps the third waiting until most of it has gone.
    const first = starts[0] as number;
    expect(starts.filter((t) => t < first + 500).length).toBeLessThanOrEqual(2);
  }, 240_000);
});

/** Parts a second after `from` (until the last). */
function fullSpeedAfter(times: number[], from: number): number {
  const rest = times.filter((t) => t > from);
  expect(rest.length).toBeGreaterThan(times.length / 4);
  return rest.length / Math.max(((rest.at(-1) as number) - (rest[0] as number)) / 1000, 0.001);
}
