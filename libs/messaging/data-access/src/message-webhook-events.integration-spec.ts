import { randomBytes, randomUUID } from 'node:crypto';
import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import { MessageWebhookEvents } from './message-webhook-events';

describe('MessageWebhookEvents (PostgreSQL)', () => {
  let db: DataSource;
  let events: MessageWebhookEvents;
  let companyId: string;

  const newMessage = async (webhookUrl: string | null) => {
    const id = randomUUID();
    await db.query(
      `INSERT INTO messages (id, company_id, request_id, route, sender, recipient, body, encoding, parts, price_per_part, cost,
         reference, webhook_url, status, error_code)
       VALUES ($1, $2, gen_random_uuid(), 'auto', 'Acme', '+33612345678', 'hi', 'GSM-7', 2, 0.05, 0.1, 'ref-1', $3, 'undelivered', '001')`,
      [id, companyId, webhookUrl],
    );
    return id;
  };

  beforeAll(async () => {
    db = await openTestDataSource('message-webhook-events-test');
    events = new MessageWebhookEvents(db);
    const [company] = await db.query(`INSERT INTO companies (name, webhook_secret) VALUES ('Hooks', $1) RETURNING id`, [
      `whsec_${randomBytes(32).toString('base64')}`,
    ]);
    companyId = company.id;
  });
  afterAll(() => db.destroy());

  it('reads the message an event is about', async () => {
    const id = await newMessage(null);
    expect(await events.findMessage(id)).toEqual({
      id,
      companyId,
      webhookUrl: null,
      recipient: '+33612345678',
      reference: 'ref-1',
      errorCode: '001',
      errorReason: null,
      parts: 2,
      status: 'undelivered',
    });
    expect(await events.findMessage(randomUUID())).toBeNull();
  });

  it("makes a status change's event for its message's address, and none for a message that does not exist", async () => {
    const id = await newMessage('https://hooks.example.com/sms');
    const occurredAt = '2026-01-02T03:04:05.678Z';
    expect(await events.statusChanged({ messageId: id, status: 'undelivered', occurredAt })).toEqual({
      companyId,
      messageId: id,
      url: 'https://hooks.example.com/sms',
      eventType: 'message.failed',
      payload: {
        type: 'message.failed',
        timestamp: occurredAt,
        data: { message_id: id, to: '+33612345678', status: 'undelivered', reference: 'ref-1', error_code: '001', reason: 'undelivered', parts: 2 },
      },
    });
    expect(await events.statusChanged({ messageId: randomUUID(), status: 'sent', occurredAt })).toBeNull();
  });
});
