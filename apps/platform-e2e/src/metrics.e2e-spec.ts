import { METRIC_DEFINITIONS, type MetricName } from '@mp/metrics';
import { QueueName } from '@mp/queue-contracts';
import {
  admin,
  eventually,
  freePort,
  parsePrometheusText,
  sampleSum,
  startStack,
  startWebhookReceiver,
  type PrometheusScrape,
  type RunningStack,
  type WebhookReceiver,
} from '@mp/testing';
import { ApiClient, createCompany, type Company } from './support/api-client';

const WORKERS = ['sms-dispatcher', 'otp', 'billing', 'webhook-notifier'] as const;
type AppName = 'gateway' | (typeof WORKERS)[number];
const portVariable = (app: string) => `${app.toUpperCase().replace(/-/g, '_')}_PORT`;

/** GET /metrics without credentials: parsed (it throws on a malformed line), every series labelled with the app, each mp_ family of its documented type. */
async function scrape(baseUrl: string, app: AppName): Promise<PrometheusScrape> {
  const response = await fetch(`${baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const parsed = parsePrometheusText(await response.text());
  expect(parsed.samples.filter((sample) => sample.labels['app'] !== app)).toEqual([]);
  for (const [family, type] of parsed.types) {
    if (family.startsWith('mp_')) expect([family, type]).toEqual([family, METRIC_DEFINITIONS[family as MetricName].type]);
  }
  return parsed;
}

const units = (amount: unknown) => Math.round(Number(amount) * 10_000);

/**
 * A spaced campaign with no dispatcher running: its first batch waits prioritized, the next is a
 * delayed job that comes due in the delayed set, where only the due count shows it. The gateway
 * counts both in the backlog until the campaign is cancelled (a refund).
 */
describe('metrics: campaign batches in the backlog', () => {
  let stack: RunningStack;
  let company: Company;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const campaigns = (scraped: PrometheusScrape, state?: string) =>
    state === undefined
      ? sampleSum(scraped, 'mp_queue_backlog', { queue: QueueName.CampaignDispatch })
      : sampleSum(scraped, 'mp_queue_jobs', { queue: QueueName.CampaignDispatch, state });

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Metrics Backlog', '5');
    stack = await startStack({ apps: ['gateway'] });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('counts a later batch as delayed, then as due and in the backlog with the first, and the cancel as a refund', async () => {
    const before = await scrape(stack.gatewayUrl, 'gateway');
    const moved = (scraped: PrometheusScrape, state?: string) => campaigns(scraped, state) - campaigns(before, state);
    const accepted = await api.post<{ data: { campaign_id: string; total_cost: number } }>('/sms/send-bulk', {
      recipients: ['+33612600001', '+33612600002'],
      message: 'Spaced',
      from: 'Shop',
      batch_size: 1,
      delay_between_batches: 4,
    });
    expect(accepted.status).toBe(200);

    const waiting = await eventually(
      () => scrape(stack.gatewayUrl, 'gateway'),
      (scraped) => moved(scraped, 'delayed') === 1,
    );
    expect(moved(waiting, 'waiting') + moved(waiting, 'prioritized')).toBe(1);
    expect(moved(waiting)).toBe(1);
    expect(sampleSum(waiting, 'mp_billing_debits_total', { kind: 'campaign' }) - sampleSum(before, 'mp_billing_debits_total', { kind: 'campaign' })).toBe(1);
    expect(
      sampleSum(waiting, 'mp_billing_debited_units_total', { kind: 'campaign' }) - sampleSum(before, 'mp_billing_debited_units_total', { kind: 'campaign' }),
    ).toBe(units(accepted.body.data.total_cost));

    const due = await eventually(
      () => scrape(stack.gatewayUrl, 'gateway'),
      (scraped) => moved(scraped, 'due') === 1,
    );
    expect(moved(due, 'delayed')).toBe(0);
    expect(moved(due)).toBe(2);
    expect(campaigns(due)).toBe(campaigns(due, 'waiting') + campaigns(due, 'prioritized') + campaigns(due, 'due'));

    const cancelled = await api.post<{ data: { refunded: number } }>(`/sms/campaigns/${accepted.body.data.campaign_id}/cancel`);
    expect(cancelled.status).toBe(200);
    const after = await eventually(
      () => scrape(stack.gatewayUrl, 'gateway'),
      (scraped) => moved(scraped) === 0,
    );
    expect(sampleSum(after, 'mp_billing_refunds_total', { kind: 'campaign' }) - sampleSum(before, 'mp_billing_refunds_total', { kind: 'campaign' })).toBe(1);
    expect(
      sampleSum(after, 'mp_billing_refunded_units_total', { kind: 'campaign' }) - sampleSum(before, 'mp_billing_refunded_units_total', { kind: 'campaign' }),
    ).toBe(units(cancelled.body.data.refunded));
    expect(sampleSum(after, 'mp_http_requests_total', { method: 'POST', route: '/sms/campaigns/:campaign_id/cancel', status: '200' })).toBe(1);
  });
});

/** Every app's /metrics before and after an SMS with its receipt and webhooks, and an OTP sent and verified. */
describe('metrics of every app end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let receiver: WebhookReceiver;
  const ports = {} as Record<(typeof WORKERS)[number], number>;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const urlOf = (app: AppName) => (app === 'gateway' ? stack.gatewayUrl : `http://127.0.0.1:${ports[app]}`);
  const scrapeAll = async () =>
    Object.fromEntries(await Promise.all((['gateway', ...WORKERS] as const).map(async (app) => [app, await scrape(urlOf(app), app)]))) as Record<
      AppName,
      PrometheusScrape
    >;

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Metrics', '5');
    receiver = await startWebhookReceiver();
    for (const app of WORKERS) ports[app] = await freePort();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'otp', 'billing', 'webhook-notifier'],
      env: Object.fromEntries(WORKERS.map((app) => [portVariable(app), String(ports[app])])),
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await receiver?.close();
  });

  it('moves the counters of each app by what happened', async () => {
    const before = await scrapeAll();
    const delta = (app: AppName, now: Record<AppName, PrometheusScrape>, name: string, labels: Record<string, string> = {}) =>
      sampleSum(now[app], name, labels) - sampleSum(before[app], name, labels);

    const sms = await api.post<{ data: { message_id: string; cost: number } }>('/sms/send', {
      to: '+33612345679',
      message: 'Metered',
      webhook_url: receiver.url,
    });
    expect(sms.status).toBe(200);
    const otp = await api.post<{ verification_id: string; cost: number }>('/otp/send', {
      appid: company.appid,
      recipient: '+33698761299',
      otp_code: '4815162',
    });
    expect(otp.status).toBe(200);
    expect((await api.post('/otp/verify', { verification_id: otp.body.verification_id, code: '0000000' })).status).toBe(400);
    expect((await api.post('/otp/verify', { verification_id: otp.body.verification_id, code: '4815162' })).status).toBe(200);
    expect((await api.get('/no/such/route')).status).toBe(404);
    // message.sent and message.delivered: the receipt came back and both webhooks were delivered.
    await eventually(
      () => receiver.received.length,
      (count) => count >= 2,
    );

    const after = await eventually(
      scrapeAll,
      (now) => delta('sms-dispatcher', now, 'mp_receipts_total') >= 2 && delta('webhook-notifier', now, 'mp_webhook_attempts_total') >= 2,
    );

    // gateway: requests by route pattern, OTPs, charges
    expect(delta('gateway', after, 'mp_http_requests_total', { method: 'POST', route: '/sms/send', status: '200' })).toBe(1);
    expect(delta('gateway', after, 'mp_http_requests_total', { method: 'POST', route: '/otp/verify', status: '400' })).toBe(1);
    expect(delta('gateway', after, 'mp_http_requests_total', { method: 'GET', route: 'unmatched', status: '404' })).toBe(1);
    expect(after.gateway.samples.some((sample) => sample.labels['route']?.includes('no/such'))).toBe(false);
    expect(delta('gateway', after, 'mp_http_request_duration_seconds_count', { route: '/sms/send' })).toBe(1);
    expect(delta('gateway', after, 'mp_otp_sent_total', { channel: 'sms' })).toBe(1);
    expect(delta('gateway', after, 'mp_otp_verifications_total', { result: 'wrong_code' })).toBe(1);
    expect(delta('gateway', after, 'mp_otp_verifications_total', { result: 'verified' })).toBe(1);
    expect(delta('gateway', after, 'mp_billing_debits_total', { kind: 'sms' })).toBe(1);
    expect(delta('gateway', after, 'mp_billing_debited_units_total', { kind: 'sms' })).toBe(units(sms.body.data.cost));
    expect(delta('gateway', after, 'mp_billing_debits_total', { kind: 'otp' })).toBe(1);
    expect(delta('gateway', after, 'mp_billing_debited_units_total', { kind: 'otp' })).toBe(units(otp.body.cost));
    for (const queue of Object.values(QueueName))
      expect(after.gateway.samples.some((s) => s.name === 'mp_queue_backlog' && s.labels['queue'] === queue)).toBe(true);
    expect(after.gateway.types.get('mp_outbox_pending')).toBe('gauge');
    expect(after.gateway.types.get('process_cpu_seconds_total')).toBe('counter');

    // sms-dispatcher: two parts submitted and accepted, their receipts, timed; binds; its jobs
    expect(delta('sms-dispatcher', after, 'mp_smsc_submits_total', { smsc: 'default', outcome: 'accepted' })).toBe(2);
    expect(delta('sms-dispatcher', after, 'mp_smsc_submits_total')).toBe(2);
    expect(delta('sms-dispatcher', after, 'mp_receipts_total', { smsc: 'default', stat: 'DELIVRD' })).toBe(2);
    expect(delta('sms-dispatcher', after, 'mp_receipt_latency_seconds_count', { smsc: 'default' })).toBe(2);
    // ...and its own judgement of the carrier: delivering, not degraded.
    expect(sampleSum(after['sms-dispatcher'], 'mp_carrier_delivered_share', { smsc: 'default' })).toBe(1);
    expect(after['sms-dispatcher'].samples.filter((s) => s.name === 'mp_carrier_degraded' && s.labels['smsc'] === 'default').map((s) => s.value)).toEqual([0]);
    const bound = sampleSum(after['sms-dispatcher'], 'mp_smsc_binds_bound', { smsc: 'default' });
    expect(bound).toBeGreaterThan(0);
    expect(bound).toBe(sampleSum(after['sms-dispatcher'], 'mp_smsc_binds_configured', { smsc: 'default' }));
    expect(sampleSum(after['sms-dispatcher'], 'mp_smsc_window_size', { smsc: 'default', bind: '1' })).toBeGreaterThan(0);
    expect(delta('sms-dispatcher', after, 'mp_job_duration_seconds_count', { queue: QueueName.SmsDispatch, outcome: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(after['sms-dispatcher'].samples.some((s) => s.name === 'mp_queue_backlog' && s.labels['queue'] === QueueName.SmsDispatch)).toBe(true);
    expect(after['sms-dispatcher'].samples.some((s) => s.name === 'mp_queue_backlog' && s.labels['queue'] === QueueName.WebhookDeliver)).toBe(false);

    // webhook-notifier: every delivery the receiver got was one delivered attempt, none failed
    expect(delta('webhook-notifier', after, 'mp_webhook_attempts_total', { outcome: 'delivered' })).toBe(receiver.received.length);
    expect(delta('webhook-notifier', after, 'mp_webhook_attempts_total')).toBe(receiver.received.length);
    expect(delta('webhook-notifier', after, 'mp_webhook_attempt_duration_seconds_count', { outcome: 'delivered' })).toBe(receiver.received.length);
    expect(delta('webhook-notifier', after, 'mp_job_duration_seconds_count', { queue: QueueName.WebhookDeliver, outcome: 'completed' })).toBe(
      receiver.received.length,
    );

    // billing: the ledger check ran; otp: its queues
    expect(after.billing.types.get('mp_ledger_balance_mismatches')).toBe('gauge');
    expect(after.billing.samples.some((s) => s.name === 'mp_queue_backlog' && s.labels['queue'] === QueueName.BillingSettle)).toBe(true);
    expect(after.otp.samples.some((s) => s.name === 'mp_queue_backlog')).toBe(true);
  });
});
