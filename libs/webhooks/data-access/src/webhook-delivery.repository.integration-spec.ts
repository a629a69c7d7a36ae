import { randomBytes, randomUUID } from 'node:crypto';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { WebhookDeliveryRepository, type NewWebhookDelivery } from './webhook-delivery.repository';

describe('WebhookDeliveryRepository (PostgreSQL)', () => {
  let db: DataSource;
  let repository: WebhookDeliveryRepository;
  let companyId: string;

  const newMessage = async (webhookUrl: string | null = 'https://hooks.example.com/sms') => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost,
         reference, webhook_url, status, error_code)
       VALUES ($1, $2, gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'hi', 'GSM-7', 2, 0.05, 0.1, 'ref-1', $3, 'undelivered', '001')`,
      [id, companyId, webhookUrl],
    );
    return id;
  };
  const delivery = (messageId: string, eventType = 'message.sent'): NewWebhookDelivery => ({
    companyId,
    messageId,
    eventType,
    url: 'https://hooks.example.com/sms',
    payload: { type: eventType, data: { message_id: messageId } },
  });
  const attempt = (n: number, statusCode: number | null = 500) => ({
    attempt: n,
    statusCode,
    error: statusCode === 200 ? null : `HTTP ${statusCode}`,
    durationMs: 12,
    responseSnippet: 'oops',
  });

  beforeAll(async () => {
    db = await openTestDataSource('webhook-delivery-test');
    repository = new WebhookDeliveryRepository(db);
    const [company] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Hooks', $1) RETURNING id`, [
      `whsec_${randomBytes(32).toString('base64')}`,
    ]);
    companyId = company.id;
  });
  afterAll(() => db.destroy());

  it('creates a pending delivery once per message and event, returning the same id', async () => {
    const messageId = await newMessage();
    const first = await repository.createIfAbsent(delivery(messageId));
    expect(await repository.createIfAbsent(delivery(messageId))).toBe(first);
    const concurrent = await Promise.all(Array.from({ length: 8 }, () => repository.createIfAbsent(delivery(messageId, 'message.delivered'))));
    expect(new Set(concurrent).size).toBe(1);
    expect(concurrent[0]).not.toBe(first);
    expect(await repository.findById(first)).toMatchObject({
      companyId,
      messageId,
      eventType: 'message.sent',
      status: 'pending',
      attempts: 0,
      payload: { type: 'message.sent', data: { message_id: messageId } },
      nextAttemptAt: expect.any(Date),
    });
  });

  it('loads a delivery with the company secret to sign it with', async () => {
    const id = await repository.createIfAbsent(delivery(await newMessage()));
    expect((await repository.findToSend(id))?.webhookSecret).toMatch(/^whsec_/);
    expect(await repository.findToSend(randomUUID())).toBeNull();
  });

  it('records a failed attempt with the time of the next one, then a success', async () => {
    const id = await repository.createIfAbsent(delivery(await newMessage()));
    expect(await repository.recordAttempt(id, attempt(1), { status: 'pending', retryDelayMs: 60_000 })).toBe(true);
    const retrying = await repository.findById(id);
    expect(retrying).toMatchObject({ status: 'pending', attempts: 1, lastError: 'HTTP 500' });
    expect(retrying?.nextAttemptAt?.getTime()).toBeGreaterThan(Date.now() + 50_000);
    expect(await repository.recordAttempt(id, attempt(2, 200), { status: 'delivered' })).toBe(true);
    expect(await repository.findById(id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      lastError: null,
      nextAttemptAt: null,
      deliveredAt: expect.any(Date),
    });
    expect(await repository.listAttempts(id)).toEqual([
      { attempt: 1, statusCode: 500, error: 'HTTP 500', durationMs: 12, responseSnippet: 'oops', attemptedAt: expect.any(Date) },
      { attempt: 2, statusCode: 200, error: null, durationMs: 12, responseSnippet: 'oops', attemptedAt: expect.any(Date) },
    ]);
  });

  it('records an attempt once, however often or concurrently it is recorded, and nothing after the end', async () => {
    const id = await repository.createIfAbsent(delivery(await newMessage()));
    const runs = await Promise.all(Array.from({ length: 5 }, () => repository.recordAttempt(id, attempt(1), { status: 'pending', retryDelayMs: 5 })));
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await repository.recordAttempt(id, attempt(3), { status: 'dead' })).toBe(false);
    expect(await repository.recordAttempt(id, attempt(2), { status: 'dead' })).toBe(true);
    expect(await repository.recordAttempt(id, attempt(3), { status: 'delivered' })).toBe(false);
    expect(await repository.findById(id)).toMatchObject({ status: 'dead', attempts: 2, deadAt: expect.any(Date), deliveredAt: null });
    expect((await repository.listAttempts(id)).map((a) => a.attempt)).toEqual([1, 2]);
  });

  it("lists a company's deliveries newest first, and its dead letters", async () => {
    const [other] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Listed', 'whsec_x') RETURNING id`);
    const saved = companyId;
    companyId = other.id;
    try {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) ids.push(await repository.createIfAbsent(delivery(await newMessage())));
      await repository.recordAttempt(ids[1], attempt(1), { status: 'dead' });
      expect((await repository.listForCompany(other.id)).map((d) => d.id)).toEqual([...ids].reverse());
      expect((await repository.listForCompany(other.id, { limit: 2 })).map((d) => d.id)).toEqual([ids[2], ids[1]]);
      expect((await repository.listForCompany(other.id, { status: 'dead' })).map((d) => d.id)).toEqual([ids[1]]);
    } finally {
      companyId = saved;
    }
  });

  it('refuses a delivery status the schema does not know, and an attempt of an unknown delivery', async () => {
    const id = await repository.createIfAbsent(delivery(await newMessage()));
    await expect(db.query(`UPDATE webhook_deliveries SET status = 'lost' WHERE id = $1`, [id])).rejects.toThrow(/check constraint/);
    await expect(db.query(`UPDATE webhook_deliveries SET status = 'delivered' WHERE id = $1`, [id])).rejects.toThrow(/check constraint/);
    await expect(db.query(`INSERT INTO webhook_attempts (delivery_id, attempt, duration_ms) VALUES ($1, 1, 0)`, [randomUUID()])).rejects.toThrow(/foreign key/);
  });
});
