import { randomBytes } from 'node:crypto';
import { signWebhook, verifyWebhook } from './signing';
import { secretsSigningAt } from './signing-secrets';

const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

describe('secretsSigningAt', () => {
  const current = newSecret();
  const previous = newSecret();
  const expiry = new Date('2026-11-26T12:00:00Z');
  const rotated = { current, previous, previousExpiresAt: expiry };

  it('signs with the current secret alone when none was replaced', () => {
    expect(secretsSigningAt({ current, previous: null, previousExpiresAt: null }, expiry)).toEqual([current]);
  });

  it('signs with the current secret first and the previous one while the overlap lasts', () => {
    expect(secretsSigningAt(rotated, new Date(expiry.getTime() - 24 * 3600_000))).toEqual([current, previous]);
    expect(secretsSigningAt(rotated, new Date(expiry.getTime() - 1))).toEqual([current, previous]);
  });

  it('drops the previous secret from its expiry on', () => {
    expect(secretsSigningAt(rotated, expiry)).toEqual([current]);
    expect(secretsSigningAt(rotated, new Date(expiry.getTime() + 1))).toEqual([current]);
  });

  it('signs once when the previous secret is the current one', () => {
    expect(secretsSigningAt({ current, previous: current, previousExpiresAt: expiry }, new Date(0))).toEqual([current]);
  });
});

describe('signWebhook with several secrets', () => {
  const body = '{"type":"message.sent"}';
  const now = new Date('2026-11-26T10:00:00Z');

  it('puts one v1 signature per secret, space-separated, each verifying with its own secret alone', () => {
    const [current, previous, stranger] = [newSecret(), newSecret(), newSecret()];
    const headers = signWebhook({ secret: [current, previous], id: 'evt_7', timestamp: now, body });
    const signatures = headers['webhook-signature'].split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => /^v1,[A-Za-z0-9+/]+=*$/.test(signature))).toBe(true);
    expect(signatures[0]).toBe(signWebhook({ secret: current, id: 'evt_7', timestamp: now, body })['webhook-signature']);
    expect(signatures[1]).toBe(signWebhook({ secret: previous, id: 'evt_7', timestamp: now, body })['webhook-signature']);
    for (const secret of [current, previous]) expect(verifyWebhook({ secrets: [secret], headers: { ...headers }, body, now })).toBe(true);
    expect(verifyWebhook({ secrets: [stranger], headers: { ...headers }, body, now })).toBe(false);
  });

  it('refuses no secret at all, and any secret that is not one', () => {
    expect(() => signWebhook({ secret: [], id: 'a', timestamp: now, body })).toThrow(/at least one/);
    expect(() => signWebhook({ secret: [newSecret(), 'whsec_short'], id: 'a', timestamp: now, body })).toThrow(/whsec_/);
  });
});
