import { createHmac, randomBytes } from 'node:crypto';
import { decodeWebhookSecret, signWebhook, verifyWebhook } from './signing';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('signWebhook', () => {
  it('matches the published Standard Webhooks example', () => {
    const headers = signWebhook({
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: new Date(1614265330 * 1000),
      body: '{"test": 2432232314}',
    });
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs id.seconds.body with the decoded secret bytes', () => {
    const key = randomBytes(32);
    const body = JSON.stringify({ type: 'message.delivered', data: { to: '+33612345678', text: 'héllo' } });
    const expected = createHmac('sha256', key).update(`evt_1.1700000000.${body}`).digest('base64');
    const headers = signWebhook({
      secret: `whsec_${key.toString('base64')}`,
      id: 'evt_1',
      timestamp: new Date(1700000000_999),
      body,
    });
    expect(headers['webhook-timestamp']).toBe('1700000000');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it.each(['whsec_', 'whsec_not base64!', `whsec_${randomBytes(8).toString('base64')}`])('refuses the secret %p', (secret) => {
    expect(() => signWebhook({ secret, id: 'a', timestamp: new Date(), body: '{}' })).toThrow(/whsec_/);
  });

  it('decodes a secret with or without its prefix', () => {
    const key = randomBytes(32);
    expect(decodeWebhookSecret(`whsec_${key.toString('base64')}`)?.equals(key)).toBe(true);
    expect(decodeWebhookSecret(key.toString('base64'))?.equals(key)).toBe(true);
  });
});

describe('verifyWebhook', () => {
  const secret = newSecret();
  const now = new Date('2025-01-01T12:00:00Z');
  const body = '{"type":"message.sent"}';
  const headers = signWebhook({ secret, id: 'evt_42', timestamp: now, body });
  const verify = (overrides: Partial<Parameters<typeof verifyWebhook>[0]>) =>
    verifyWebhook({ secrets: [secret], headers: { ...headers }, body, now, ...overrides });

  it('accepts what signWebhook signed', () => {
    expect(verify({})).toBe(true);
  });

  it('matches header names case-insensitively', () => {
    const mixed = { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] };
    expect(verify({ headers: mixed })).toBe(true);
  });

  it('refuses a tampered body, id or timestamp', () => {
    expect(verify({ body: body.replace('sent', 'delivered') })).toBe(false);
    expect(verify({ body: body + ' ' })).toBe(false);
    expect(verify({ headers: { ...headers, 'webhook-id': 'evt_43' } })).toBe(false);
    const oneSecondLater = String(Number(headers['webhook-timestamp']) + 1);
    expect(verify({ headers: { ...headers, 'webhook-timestamp': oneSecondLater } })).toBe(false);
  });

  it('refuses a wrong secret and accepts any of several (rotation)', () => {
    expect(verify({ secrets: [newSecret()] })).toBe(false);
    expect(verify({ secrets: [] })).toBe(false);
    expect(verify({ secrets: ['whsec_garbage', newSecret(), secret] })).toBe(true);
  });

  it('accepts a list of signatures when one of them matches', () => {
    const other = signWebhook({ secret: newSecret(), id: 'evt_42', timestamp: now, body })['webhook-signature'];
    const list = `v2,abc ${other} ${headers['webhook-signature']}`;
    expect(verify({ headers: { ...headers, 'webhook-signature': list } })).toBe(true);
    expect(verify({ headers: { ...headers, 'webhook-signature': `v1a,x ${other}` } })).toBe(false);
  });

  it('refuses the right signature under another version, or altered', () => {
    const base64 = headers['webhook-signature'].slice(3);
    expect(verify({ headers: { ...headers, 'webhook-signature': `v2,${base64}` } })).toBe(false);
    expect(verify({ headers: { ...headers, 'webhook-signature': `v1,${base64}=` } })).toBe(false);
    expect(verify({ headers: { ...headers, 'webhook-signature': `v1,${base64.slice(1)}` } })).toBe(false);
  });

  it('refuses missing headers', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const) {
      expect(verify({ headers: { ...headers, [name]: undefined } })).toBe(false);
      expect(verify({ headers: { ...headers, [name]: '' } })).toBe(false);
    }
  });

  it('accepts timestamps within the tolerance, either way, and refuses beyond it', () => {
    const at = (offsetSeconds: number) => new Date(now.getTime() + offsetSeconds * 1000);
    expect(verify({ now: at(300) })).toBe(true);
    expect(verify({ now: at(-300) })).toBe(true);
    expect(verify({ now: at(301) })).toBe(false);
    expect(verify({ now: at(-301) })).toBe(false);
    expect(verify({ now: at(1000), toleranceSeconds: 1000 })).toBe(true);
    expect(verify({ now: at(11), toleranceSeconds: 10 })).toBe(false);
  });

  it('refuses a timestamp that is not whole seconds', () => {
    for (const timestamp of ['1735732800.0', '1735732800ms', '-1', ' 1735732800', '0x676d2b40']) {
      expect(verify({ headers: { ...headers, 'webhook-timestamp': timestamp } })).toBe(false);
    }
  });
});
