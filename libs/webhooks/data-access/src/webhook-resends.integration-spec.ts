import { randomBytes, randomUUID } from 'node:crypto';
import type { OutboxJob } from '@mp/queue-runtime';
import { openTestDataSource } from '@mp/testing';
import { InvalidCursorError } from '@mp/persistence';
import type { DataSource } from 'typeorm';
import { DeliveryStillRetryingError, WebhookDeliveryLog, WebhookDeliveryRepository, WebhookResends } from './index';

const secret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('webhook resends and the console log (PostgreSQL)', () => {
  let db: DataSource;
  let repository: WebhookDeliveryRepository;
  let log: WebhookDeliveryLog;
  let resends: WebhookResends;
  let relayed: { ids: readonly string[]; jobs: readonly OutboxJob[] }[];

  const newCompany = async () => (await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Hooks', $1) RETURNING id`, [secret()]))[0].id as string;
  const newMessage = async (companyId: string) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost, webhook_url, status)
       VALUES ($1, $2, gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'hi', 'GSM-7', 1, 0.05, 0.05, 'https://hooks.example.com/x', 'sent')`,
      [id, companyId],
    );
    return id;
  };
  const newDelivery = async (companyId: string, eventType = 'message.sent') =>
    repository.createIfAbsent({
      companyId,
      messageId: await newMessage(companyId),
      eventType,
      url: 'https://hooks.example.com/x',
      payload: { type: eventType },
    });
  const fail = (n: number, status: 'pending' | 'dead' = 'pending') => ({
    attempt: { attempt: n, statusCode: 500, error: 'HTTP 500', durationMs: 7, responseSnippet: null },
    outcome: status === 'dead' ? ({ status: 'dead' } as const) : ({ status: 'pending', retryDelayMs: 60_000 } as const),
  });
  const outboxOf = async (deliveryId: string) =>
    (await db.query(`SELECT queue, job_name, job_id, data FROM outbox WHERE job_id LIKE $1 ORDER BY id`, [`wh-${deliveryId}-%`])) as Record<string, unknown>[];

  beforeAll(async () => {
    db = await openTestDataSource('webhook-resends-test');
    repository = new WebhookDeliveryRepository(db);
    log = new WebhookDeliveryLog(db);
    resends = new WebhookResends(db, async (ids, jobs) => void relayed.push({ ids, jobs }));
  });
  beforeEach(() => (relayed = []));
  afterAll(() => db.destroy());

  it('resends a dead delivery as its next attempt, committed in the outbox and relayed, once however often asked', async () => {
    const companyId = await newCompany();
    const id = await newDelivery(companyId);
    const { attempt, outcome } = fail(1, 'dead');
    expect(await repository.recordAttempt(id, attempt, outcome)).toBe(true);

    expect(await resends.resend(companyId, id)).toEqual({ deliveryId: id, attempt: 2, alreadyAsked: false });
    expect(await repository.findToSend(id)).toMatchObject({ status: 'pending', attempts: 1, resendAttempt: 2, deadAt: null });
    expect(await outboxOf(id)).toEqual([{ queue: 'webhook.deliver', job_name: 'webhook.deliver', job_id: `wh-${id}-2`, data: { deliveryId: id } }]);
    expect(relayed.map((r) => r.jobs.map((job) => job.jobId))).toEqual([[`wh-${id}-2`]]);

    expect(await resends.resend(companyId, id)).toEqual({ deliveryId: id, attempt: 2, alreadyAsked: true });
    expect(await outboxOf(id)).toHaveLength(1);

    // The resend's attempt is marked as one; a failure leaves the delivery dead again.
    expect(await repository.recordAttempt(id, { ...attempt, attempt: 2 }, { status: 'dead' })).toBe(true);
    const detail = await log.find(companyId, id);
    expect(detail).toMatchObject({ status: 'dead', attemptCount: 2, payload: { type: 'message.sent' } });
    expect(detail?.attempts.map((a) => [a.attempt, a.statusCode, a.resend])).toEqual([
      [1, 500, false],
      [2, 500, true],
    ]);
  });

  it('resends a delivered delivery too, and refuses one still on its retry schedule', async () => {
    const companyId = await newCompany();
    const delivered = await newDelivery(companyId);
    await repository.recordAttempt(delivered, { attempt: 1, statusCode: 200, error: null, durationMs: 3, responseSnippet: null }, { status: 'delivered' });
    expect(await resends.resend(companyId, delivered)).toMatchObject({ attempt: 2, alreadyAsked: false });
    expect(await repository.findById(delivered)).toMatchObject({ status: 'pending', deliveredAt: null });

    const retrying = await newDelivery(companyId, 'message.delivered');
    const { attempt, outcome } = fail(1);
    await repository.recordAttempt(retrying, attempt, outcome);
    await expect(resends.resend(companyId, retrying)).rejects.toThrow(DeliveryStillRetryingError);
    expect(await outboxOf(retrying)).toEqual([]);
    expect(relayed.filter((r) => r.jobs.some((job) => job.jobId.includes(retrying)))).toEqual([]);
  });

  it("answers null for another company's delivery, an unknown id and a malformed one, changing nothing", async () => {
    const companyId = await newCompany();
    const other = await newCompany();
    const id = await newDelivery(companyId);
    await repository.recordAttempt(id, fail(1, 'dead').attempt, { status: 'dead' });
    expect(await resends.resend(other, id)).toBeNull();
    expect(await resends.resend(companyId, randomUUID())).toBeNull();
    expect(await resends.resend(companyId, 'not-a-uuid')).toBeNull();
    expect(await log.find(other, id)).toBeNull();
    expect((await repository.findById(id))?.status).toBe('dead');
  });

  it('lists newest first in keyset pages, by status and event type, each with its attempts', async () => {
    const companyId = await newCompany();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await newDelivery(companyId, i % 2 === 0 ? 'message.sent' : 'otp.verified'));
    await repository.recordAttempt(ids[3], fail(1, 'dead').attempt, { status: 'dead' });
    const newestFirst = [...ids].reverse();
    const first = await log.list(companyId, { status: null, eventType: null }, { cursor: null, limit: 2 });
    expect(first.items.map((d) => d.id)).toEqual(newestFirst.slice(0, 2));
    const second = await log.list(companyId, { status: null, eventType: null }, { cursor: first.next_cursor, limit: 2 });
    const third = await log.list(companyId, { status: null, eventType: null }, { cursor: second.next_cursor, limit: 2 });
    expect([...second.items, ...third.items].map((d) => d.id)).toEqual(newestFirst.slice(2));
    expect(third.next_cursor).toBeNull();
    const dead = await log.list(companyId, { status: 'dead', eventType: null }, { cursor: null });
    expect(dead.items.map((d) => [d.id, d.attempts.map((a) => a.statusCode)])).toEqual([[ids[3], [500]]]);
    const otp = await log.list(companyId, { status: null, eventType: 'otp.verified' }, { cursor: null });
    expect(otp.items.map((d) => d.id)).toEqual([ids[3], ids[1]]);
    await expect(log.list(companyId, { status: null, eventType: null }, { cursor: 'bm90IGEgY3Vyc29y' })).rejects.toThrow(InvalidCursorError);
  });

  it('gives the notifier the previous secret and its expiry with a delivery to send', async () => {
    const companyId = await newCompany();
    const previous = secret();
    await db.query(`UPDATE companies SET previous_webhook_secret = $2, previous_webhook_secret_expires_at = now() + interval '1 hour' WHERE id = $1`, [
      companyId,
      previous,
    ]);
    const toSend = await repository.findToSend(await newDelivery(companyId));
    expect(toSend).toMatchObject({ previousWebhookSecret: previous, previousWebhookSecretExpiresAt: expect.any(Date), resendAttempt: null });
  });
});
