import { createHmac } from 'node:crypto';
import { hubSignature, statusWebhookBody, UNDELIVERABLE } from './status-webhook';

describe('a status webhook', () => {
  const at = new Date(Date.UTC(2025, 0, 2, 3, 4, 5, 678));

  it("is shaped as Meta's messages notification, with the timestamp in unix seconds as a string", () => {
    const body = statusWebhookBody({ messageId: 'wamid.abc', status: 'delivered', phoneNumberId: '1234', recipientId: '447700900123', at });
    expect(body).toEqual({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: expect.stringMatching(/^\d+$/),
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550000000', phone_number_id: '1234' },
                statuses: [{ id: 'wamid.abc', status: 'delivered', timestamp: '1735787045', recipient_id: '447700900123' }],
              },
            },
          ],
        },
      ],
    });
  });

  it('carries the errors of a failed status', () => {
    const body = statusWebhookBody({ messageId: 'm', status: 'failed', phoneNumberId: '1', recipientId: '2', at, errors: [UNDELIVERABLE] });
    expect(JSON.stringify(body)).toContain(
      '"status":"failed","timestamp":"1735787045","recipient_id":"2","errors":[{"code":131026,"title":"Message undeliverable"}]',
    );
  });

  it('is signed with HMAC-SHA256 of the raw body, keyed with the app secret', () => {
    const raw = '{"object":"whatsapp_business_account"}';
    const expected = createHmac('sha256', 'secret').update(raw).digest('hex');
    expect(hubSignature(raw, 'secret')).toBe(`sha256=${expected}`);
    expect(hubSignature(Buffer.from(raw), 'secret')).toBe(`sha256=${expected}`);
    expect(hubSignature(raw, 'other')).not.toBe(`sha256=${expected}`);
    // A known vector (RFC 4231 test case 2), so the signature is checked against more than itself.
    expect(hubSignature('what do ya want for nothing?', 'Jefe')).toBe('sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});
