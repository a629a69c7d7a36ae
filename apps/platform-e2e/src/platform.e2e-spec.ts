import { admin, freePort, runAdmin, startStack, type RunningStack } from '@mp/testing';

const WORKERS = { otp: 'OTP_PORT', 'sms-dispatcher': 'SMS_DISPATCHER_PORT', billing: 'BILLING_PORT', 'webhook-notifier': 'WEBHOOK_NOTIFIER_PORT' };
/** Which process must answer each queue: the contract of docs/architecture.md. */
const CONSUMERS: Record<string, string> = {
  'sms.dispatch': 'sms-dispatcher',
  'otp.dispatch': 'sms-dispatcher',
  'campaign.dispatch': 'sms-dispatcher',
  'otp.deliver': 'otp',
  'delivery.events': 'webhook-notifier',
  'webhook.deliver': 'webhook-notifier',
  'billing.settle': 'billing',
};

/** startStack waits for the gateway; the workers boot alongside it. */
async function waitUntilReady(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/health/ready`).then(
      (response) => response.status,
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`nothing ready on port ${port} after ${timeoutMs} ms`);
}

/** The five apps as separate processes: each healthy, each consuming exactly its queues. */
describe('the whole platform', () => {
  let stack: RunningStack;
  const ports: Record<string, number> = {};

  beforeAll(async () => {
    await admin(['db:migrate']);
    const env: Record<string, string> = { LOG_LEVEL: 'info' };
    for (const [app, variable] of Object.entries(WORKERS)) {
      ports[app] = await freePort();
      env[variable] = String(ports[app]);
    }
    stack = await startStack({ env });
    await Promise.all(Object.values(ports).map((port) => waitUntilReady(port)));
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('runs every worker as its own process with live and ready health endpoints', async () => {
    const pids = new Set<number>();
    for (const app of Object.keys(WORKERS)) {
      const live = await fetch(`http://127.0.0.1:${ports[app]}/health/live`);
      expect({ app, status: live.status }).toEqual({ app, status: 200 });
      const ready = await fetch(`http://127.0.0.1:${ports[app]}/health/ready`);
      expect({ app, status: ready.status }).toEqual({ app, status: 200 });
      expect(await ready.json()).toMatchObject({
        status: 'ok',
        info: { postgres: { status: 'up' }, redis: { status: 'up' }, queues: { status: 'up' } },
      });
    }
    const gateway = await fetch(`${stack.gatewayUrl}/health/ready`);
    expect(gateway.status).toBe(200);
    const probe = await admin(['queue:probe', '--timeout', '20000']);
    for (const queue of probe['queues'] as { answeredBy?: { pid: number } }[]) if (queue.answeredBy) pids.add(queue.answeredBy.pid);
    expect(pids.size).toBe(4);
  });

  it('answers a probe on every queue from the app that consumes it', async () => {
    const run = await runAdmin(['queue:probe', '--timeout', '20000']);
    expect(run.code).toBe(0);
    const queues = run.json?.['queues'] as { queue: string; ok: boolean; answeredBy?: { app: string; queue: string } }[];
    expect(queues.map((q) => [q.queue, q.ok, q.answeredBy?.app]).sort()).toEqual(
      Object.entries(CONSUMERS)
        .map(([queue, app]) => [queue, true, app])
        .sort(),
    );
  });

  it('writes JSON logs that carry the request id of the request they belong to', async () => {
    const response = await fetch(`${stack.gatewayUrl}/balance`, { headers: { 'x-request-id': 'log-trace-42' } });
    expect(response.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const line =
      stack
        .logs()
        .split('\n')
        .find((text) => text.includes('"requestId":"log-trace-42"')) ?? '';
    const json = JSON.parse(line.slice(line.indexOf('{'))) as Record<string, unknown>;
    expect(json).toMatchObject({ app: 'gateway', requestId: 'log-trace-42', status: 401, url: '/balance' });
  });

  it('reports a queue without a consumer as not ok', async () => {
    const run = await runAdmin(['queue:probe', '--timeout', '1500'], { QUEUE_PREFIX: `${process.env['QUEUE_PREFIX']}-nobody` });
    expect(run.code).toBe(3);
    expect((run.json?.['queues'] as { ok: boolean }[]).every((queue) => !queue.ok)).toBe(true);
  });
});
