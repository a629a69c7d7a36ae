import { admin, eventually, freePort, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

interface Handset {
  to: string;
  text: string;
}

const CAMPAIGN = 1_000;
/** Campaign parts the carrier has taken before the OTP is sent: the campaign is flowing. */
const OTP_AFTER = 100;
/**
 * Parts the carrier may take between the OTP's acceptance and its own submit_sm: what leaves
 * while the OTP goes through the outbox, Redis and the dispatcher's queue (about 10 ms a part
 * here). Without lanes it would wait behind every campaign part already handed to the bind,
 * hundreds of them.
 */
const OVERTAKEN_AT_MOST = 60;

const campaignNumber = (i: number) => `+33630${String(i).padStart(6, '0')}`;

/**
 * OTP traffic is never delayed by a campaign: with one bind of window 1 and a carrier that
 * answers each submit_sm after 10 ms, a 1,000-recipient campaign queues hundreds of parts at the
 * bind; an OTP sent in its middle still goes to the carrier within a few parts, not after them.
 * Checked by order of arrival at the carrier, not by time.
 */
describe('an OTP sent while a campaign drains', () => {
  let stack: RunningStack;
  let simulatorUrl: string;
  let company: Company;
  const otpNumber = '+33631999999';

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const received = () => simulatorMessages<Handset>(simulatorUrl);

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Busy Shop', '50');
    const httpPort = await freePort();
    simulatorUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'],
      env: { SMSC_SIMULATOR_PORT: String(httpPort), SMSC_LATENCY_MS: '10', SMPP_BINDS: '1', SMPP_WINDOW: '1' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('reaches the carrier within a few parts, ahead of the campaign parts waiting at the bind', async () => {
    const campaign = await api.post('/sms/send-bulk', {
      recipients: Array.from({ length: CAMPAIGN }, (_, i) => campaignNumber(i)),
      message: 'Clearance: everything must go',
      from: 'Shop',
    });
    expect(campaign.status).toBe(200);
    const before = await eventually(received, (list) => list.length >= OTP_AFTER, 60_000);

    const otp = await api.post('/otp/send', { appid: company.appid, recipient: otpNumber });
    expect(otp.status).toBe(200);
    const acceptedBy = (await received()).length;

    const arrivals = await eventually(received, (list) => list.some((m) => m.to === otpNumber), 60_000);
    const position = arrivals.findIndex((m) => m.to === otpNumber);
    const campaignPartsLeft = CAMPAIGN - arrivals.filter((m) => m.to !== otpNumber).length;
    // The campaign was still flowing on both sides of the OTP.
    expect(before.length).toBeGreaterThanOrEqual(OTP_AFTER);
    expect(campaignPartsLeft).toBeGreaterThan(CAMPAIGN / 2);
    expect({ overtaken: position - acceptedBy <= OVERTAKEN_AT_MOST, position, acceptedBy }).toMatchObject({ overtaken: true });
    // ...and the campaign still finishes, every recipient once.
    const all = await eventually(received, (list) => list.length >= CAMPAIGN + 1, 120_000);
    expect(new Set(all.map((m) => m.to)).size).toBe(CAMPAIGN + 1);
  }, 240_000);
});
