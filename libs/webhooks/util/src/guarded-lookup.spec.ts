import type { LookupAddress } from 'node:dns';
import { ForbiddenAddressError } from './address-guard';
import { guardedLookup, type ResolveAll } from './guarded-lookup';

const none = { allowLoopback: false, allowPrivate: false };
const resolvingTo =
  (...addresses: string[]): ResolveAll =>
  (_hostname, _options, callback) =>
    callback(
      null,
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );

function run(resolve: ResolveAll, all: boolean, policy = none) {
  return new Promise<{ error: Error | null; address: string | LookupAddress[]; family?: number }>((done) => {
    guardedLookup(policy, resolve)('hooks.example', { all }, (error, address, family) => done({ error, address, family }));
  });
}

describe('guardedLookup', () => {
  it('answers with every address when asked for all, or with the first', async () => {
    const resolve = resolvingTo('93.184.216.34', '2606:2800:220:1::1');
    expect(await run(resolve, true)).toEqual({
      error: null,
      address: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
      family: undefined,
    });
    expect(await run(resolve, false)).toEqual({ error: null, address: '93.184.216.34', family: 4 });
  });

  it('refuses the host when any one of its addresses is forbidden', async () => {
    const { error } = await run(resolvingTo('93.184.216.34', '10.0.0.5'), false);
    expect(error).toBeInstanceOf(ForbiddenAddressError);
    expect(error?.message).toBe('hooks.example resolves to 10.0.0.5, which is a private address');
    expect((await run(resolvingTo('::ffff:127.0.0.1'), true)).error).toBeInstanceOf(ForbiddenAddressError);
  });

  it('follows the policy', async () => {
    const { error } = await run(resolvingTo('127.0.0.1', '::1'), true, { allowLoopback: true, allowPrivate: false });
    expect(error).toBeNull();
  });

  it('passes resolver errors through, and treats no address as not found', async () => {
    const failing: ResolveAll = (_h, _o, callback) => callback(Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }), []);
    expect((await run(failing, false)).error?.message).toBe('getaddrinfo ENOTFOUND x');
    expect((await run(resolvingTo(), true)).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});
