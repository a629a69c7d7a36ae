import { admin, eventually, startStack, startWebhookReceiver, type RunningStack, type WebhookReceiver } from '@mp/testing';
import { randomUUID } from 'node:crypto';
import { ApiClient, createCompany, type Company } from './support/api-client';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './support/otlp-receiver';

/**
 * With an OTLP endpoint set, one SMS sent with a webhook_url is one trace: the gateway's request,
 * its outbox relay, the dispatcher's job, submit_sm and the receipt, and the webhook-notifier's
 * jobs and POSTs (docs/decisions/0043-traces-and-log-ids.md). Its log lines name the trace.
 */
describe('traces end to end', () => {
  let stack: RunningStack;
  let company: Company;
  let webhooks: WebhookReceiver;
  let collector: OtlpReceiver;
  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Traced', '5');
    webhooks = await startWebhookReceiver();
    collector = await startOtlpReceiver();
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator', 'webhook-notifier'],
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: collector.url, OTEL_BSP_SCHEDULE_DELAY: '100', LOG_LEVEL: 'debug' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await webhooks?.close();
    await collector?.close();
  });

  it('follows an SMS from its request to submit_sm, its receipt and its webhooks in one trace', async () => {
    const requestId = `traced-${randomUUID()}`;
    const response = await api.post<{ data: { message_id: string } }>(
      '/sms/send',
      { to: '+33612300901', message: 'Traced parcel', webhook_url: webhooks.url },
      { headers: { 'x-request-id': requestId } },
    );
    expect(response.status).toBe(200);
    const messageId = response.body.data.message_id;

    const request = await eventually(
      () => collector.spans.find((span) => span.attributes['http.request.id'] === requestId),
      (span) => span !== undefined,
    );
    expect(request).toMatchObject({ service: 'gateway', name: 'POST /sms/send', attributes: { 'http.response.status_code': 200 } });
    const trace = () => collector.spans.filter((span) => span.traceId === request?.traceId);
    const named = (spans: ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
    // Each process exports its spans in its own batches: the notifier's webhook spans can reach the
    // collector before the dispatcher's receipt span that caused them, so wait for every one checked.
    const expected: [string, number][] = [
      ['outbox relay', 1],
      ['sms.dispatch process', 1],
      ['submit_sm', 1],
      ['deliver_sm receipt', 1],
      ['delivery.events process', 2],
      ['webhook.deliver process', 2],
      ['webhook POST', 2],
    ];
    const spans = await eventually(trace, (list) => expected.every(([name, count]) => named(list, name).length >= count));

    const byId = new Map(spans.map((span) => [span.spanId, span]));
    const parentOf = (span: ReceivedSpan | undefined) => (span?.parentSpanId ? byId.get(span.parentSpanId) : undefined);
    const one = (name: string, service: string) => {
      const found = named(spans, name).filter((span) => span.service === service);
      expect({ name, service, found: found.length }).toEqual({ name, service, found: 1 });
      return found[0];
    };

    const relay = one('outbox relay', 'gateway');
    expect(parentOf(relay)).toBe(request);
    const job = one('sms.dispatch process', 'sms-dispatcher');
    expect(parentOf(job)).toBe(request);
    const submit = one('submit_sm', 'sms-dispatcher');
    expect(parentOf(submit)).toBe(job);
    expect(submit.attributes).toMatchObject({ 'messaging.message.id': messageId, 'smpp.outcome': 'accepted' });
    const receipt = one('deliver_sm receipt', 'sms-dispatcher');
    expect(parentOf(receipt)).toBe(submit);
    expect(receipt.attributes).toMatchObject({ 'smpp.message_id': submit.attributes['smpp.message_id'], 'smpp.receipt.stat': 'DELIVRD' });

    // message.sent comes of the submit's record, message.delivered of the receipt's.
    const events = named(spans, 'delivery.events process');
    expect(events.map((span) => parentOf(span)?.name).sort()).toEqual(['deliver_sm receipt', 'submit_sm']);
    for (const event of events) expect(event.service).toBe('webhook-notifier');
    const deliveries = named(spans, 'webhook.deliver process');
    expect(deliveries.map((span) => parentOf(span)?.name)).toEqual(['delivery.events process', 'delivery.events process']);
    const posts = named(spans, 'webhook POST');
    expect(posts.map((span) => parentOf(span)?.name)).toEqual(['webhook.deliver process', 'webhook.deliver process']);
    for (const post of posts) expect(post.attributes).toMatchObject({ 'http.response.status_code': 204, 'server.address': new URL(webhooks.url).host });
    expect(spans.every((span) => span.statusCode !== 2)).toBe(true);

    // The log lines written while serving the job name it and its trace.
    const lines = stack
      .logs()
      .split('\n')
      .map((line) => line.slice(line.indexOf('{')))
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const jobLines = lines.filter((line) => line['jobId'] === job.attributes['messaging.message.id']);
    expect(jobLines).toContainEqual(
      expect.objectContaining({ app: 'sms-dispatcher', queue: 'sms.dispatch', msg: 'job submitted its parts', messages: 1, submitted: 1 }),
    );
    for (const line of jobLines) expect(line).toMatchObject({ queue: 'sms.dispatch', traceId: request?.traceId, spanId: expect.any(String) });
    expect(lines).toContainEqual(expect.objectContaining({ app: 'gateway', msg: 'request completed', requestId, traceId: request?.traceId }));
  });
});
