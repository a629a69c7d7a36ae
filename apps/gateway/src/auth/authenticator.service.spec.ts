import type { ActiveApiKey, ApiKeyRepository } from '@mp/accounts';
import { generateApiKey, issueAccessToken } from '@mp/auth';
import { GatewayEnv } from '../gateway.env';
import type { AuthThrottle } from './auth-throttle.service';
import type { KeyUsage } from './key-usage.service';
import { Authenticator, COMPANY_SUSPENDED_ERROR } from './authenticator.service';

const config = new GatewayEnv();
const pair = generateApiKey(config.API_KEY_PEPPER);
const unknown = generateApiKey(config.API_KEY_PEPPER).key;
const KEY_ID = '0195f7a2-0000-7000-8000-00000000000a';
const OTHER_KEY_ID = '0195f7a2-0000-7000-8000-00000000000b';
const COMPANY = '0195f7a2-0000-7000-8000-00000000000c';
const OTHER_COMPANY = '0195f7a2-0000-7000-8000-00000000000d';
const stored: ActiveApiKey = { id: KEY_ID, companyId: COMPANY, secretHash: pair.secretHash, companySuspended: false };

function authenticator(options: { blocked?: boolean; suspended?: boolean } = {}) {
  const calls = { lookups: 0, failed: [] as [string, string | null][], checked: [] as [string, string | null][], used: [] as string[] };
  const keys = {
    findActiveByKey: async (key: string) => (calls.lookups++, key === pair.key ? { ...stored, companySuspended: options.suspended ?? false } : null),
    findActiveById: async (id: string) => (calls.lookups++, id === stored.id ? { ...stored, companySuspended: options.suspended ?? false } : null),
  } as unknown as ApiKeyRepository;
  const throttle = {
    refuseIfBlocked: async (key: string, address: string | null) => {
      calls.checked.push([key, address]);
      if (options.blocked) throw new Error('throttled');
    },
    failed: async (key: string, address: string | null) => void calls.failed.push([key, address]),
  } as unknown as AuthThrottle;
  const usage = { used: (id: string) => void calls.used.push(id) } as unknown as KeyUsage;
  return { auth: new Authenticator(keys, config, throttle, usage), calls };
}

const keyPair = (key: string, secret: string) => ({ 'x-api-key': key, 'x-api-secret': secret });

describe('Authenticator', () => {
  it("answers the key's company for the right secret, and reads the key once while it is cached", async () => {
    const { auth, calls } = authenticator();
    const principal = { companyId: COMPANY, apiKeyId: KEY_ID };
    expect(await auth.authenticate(keyPair(pair.key, pair.secret), '203.0.113.9')).toEqual(principal);
    expect(await auth.authenticate(keyPair(pair.key, pair.secret), '203.0.113.9')).toEqual(principal);
    expect(calls.lookups).toBe(1);
    expect(calls.checked).toEqual([[pair.key, '203.0.113.9']]);
    expect(calls.failed).toEqual([]);
    expect(calls.used).toEqual([KEY_ID, KEY_ID]);
  });

  it('counts a wrong secret and an unknown key as failures, and never looks up a key of the wrong shape', async () => {
    const { auth, calls } = authenticator();
    expect(await auth.authenticate(keyPair(pair.key, 'wrong'), '203.0.113.9')).toBeUndefined();
    expect(await auth.authenticate(keyPair(unknown, pair.secret))).toBeUndefined();
    expect(calls.failed).toEqual([
      [pair.key, '203.0.113.9'],
      [unknown, null],
    ]);
    expect(await auth.authenticate(keyPair('not-a-key', pair.secret))).toBeUndefined();
    expect(calls.lookups).toBe(2);
    expect(calls.used).toEqual([]);
  });

  it('lets the throttle refuse a new credential before the key is read', async () => {
    const { auth, calls } = authenticator({ blocked: true });
    await expect(auth.checkKeyPair(pair.key, pair.secret, '203.0.113.9')).rejects.toThrow('throttled');
    expect(calls.lookups).toBe(0);
  });

  it("refuses a suspended company's right key and its access tokens with 403, without counting a failure", async () => {
    const { auth, calls } = authenticator({ suspended: true });
    await expect(auth.authenticate(keyPair(pair.key, pair.secret))).rejects.toMatchObject({ error: COMPANY_SUSPENDED_ERROR });
    const token = auth.issueToken({ companyId: COMPANY, apiKeyId: KEY_ID }).access_token;
    await expect(auth.authenticate({ authorization: `Bearer ${token}` })).rejects.toMatchObject({ error: COMPANY_SUSPENDED_ERROR });
    expect(await auth.authenticate(keyPair(pair.key, 'wrong'))).toBeUndefined();
    expect(calls.failed).toEqual([[pair.key, null]]);
  });

  it("accepts an access token of an active key of the token's company, nothing else", async () => {
    const { auth, calls } = authenticator();
    const token = auth.issueToken({ companyId: COMPANY, apiKeyId: KEY_ID }).access_token;
    expect(await auth.authenticate({ authorization: `Bearer ${token}` })).toEqual({ companyId: COMPANY, apiKeyId: KEY_ID });
    const otherCompany = issueAccessToken({ sub: KEY_ID, cid: OTHER_COMPANY }, config.JWT_SECRET);
    expect(await auth.authenticate({ authorization: `Bearer ${otherCompany}` })).toBeUndefined();
    const revoked = issueAccessToken({ sub: OTHER_KEY_ID, cid: COMPANY }, config.JWT_SECRET);
    expect(await auth.authenticate({ authorization: `Bearer ${revoked}` })).toBeUndefined();
    const forged = issueAccessToken({ sub: KEY_ID, cid: COMPANY }, 'another-secret-'.padEnd(40, 'x'));
    expect(await auth.authenticate({ authorization: `Bearer ${forged}` })).toBeUndefined();
    expect(calls.used).toEqual([KEY_ID]);
  });
});
