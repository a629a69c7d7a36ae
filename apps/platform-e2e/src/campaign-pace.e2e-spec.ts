import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { apiPoster, simulatorMessages } from './support/api-client';

interface Company {
  api_key: string;
  api_secret: string;
}
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

const campaignNumber = (i: number) => `+33640${String(i).padStart(6, '0')}`;
const singleNumber = '+33641999999';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * With CAMPAIGN_PACE_WHILE_OTHERS_FLOW set, a campaign goes at that pace while single sends (or
 * OTPs) flow, and at full speed again once they stop. Judged by the carrier's own arrival times.
 */
describe('a campaign paced while other traffic flows', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let company: Company;

  const post = apiPoster(() => stack.gatewayUrl, () => company);
  const received = () => simulatorMessages<Handset>(simulatorUrl);

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = (await admin(['company:create', '--name', 'Paced Shop', '--balance', '100'])) as unknown as Company;
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'],
      env: { SMSC_SIMULATOR_PORT: String(httpPort), CAMPAIGN_PACE_WHILE_OTHERS_FLOW: String(PACE) },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('keeps to the pace while single sends flow, then drains at full speed', async () => {
    const single = () => post('/sms/send', { to: singleNumber, message: 'Your order has shipped', from: 'Shop' });
    expect((await single()).status).toBe(200);
    await eventually(received, (list) => list.some((m) => m.to === singleNumber), 30_000);

    const campaign = await post('/sms/send-bulk', {
      recipients: Array.from({ length: CAMPAIGN }, (_, i) => campaignNumber(i)),
      message: 'Clearance: everything must go',
      from: 'Shop',
    });
    expect(campaign.status).toBe(200);
    const flowEnds = Date.now() + OTHERS_FLOW_MS;
    let singles = 1;
    while (Date.now() < flowEnds) {
      expect((await single()).status).toBe(200);
      singles += 1;
      await sleep(SEND_EVERY_MS);
    }
    const lastSingleAt = await eventually(
      received,
      (list) => list.filter((m) => m.to === singleNumber).length >= singles,
      30_000,
    ).then((list) => Math.max(...list.filter((m) => m.to === singleNumber).map((m) => Date.parse(m.received_at))));

    const all = await eventually(received, (list) => list.length >= CAMPAIGN + singles, 120_000);
    const campaignTimes = all
      .filter((m) => m.to !== singleNumber)
      .map((m) => Date.parse(m.received_at))
      .sort((a, b) => a - b);
    expect(new Set(all.filter((m) => m.to !== singleNumber).map((m) => m.to)).size).toBe(CAMPAIGN);

    // While the singles flowed: at most the pace, with a tick's share and a second of slack.
    const firstPart = campaignTimes[0] as number;
    const whileFlowing = campaignTimes.filter((t) => t <= lastSingleAt).length;
    const flowingSeconds = (lastSingleAt - firstPart) / 1000;
    expect(flowingSeconds).toBeGreaterThan(1);
    expect(whileFlowing).toBeLessThanOrEqual(Math.ceil(PACE * (flowingSeconds + 1)));
    // Unpaced, the whole campaign would have gone by then: most of it was still waiting.
    expect(CAMPAIGN - whileFlowing).toBeGreaterThan(CAMPAIGN / 2);
    // Once they stopped the rest went at full speed, much faster than the pace.
    const rest = campaignTimes.filter((t) => t > lastSingleAt + 1_000);
    const restSeconds = ((rest.at(-1) as number) - (rest[0] as number)) / 1000;
    expect(rest.length).toBeGreaterThan(CAMPAIGN / 4);
    expect(rest.length / Math.max(restSeconds, 0.001)).toBeGreaterThan(PACE * 3);
  }, 240_000);
});
