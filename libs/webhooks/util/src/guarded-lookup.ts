import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { type AddressPolicy, assertAllowedAddress } from './address-guard';

export type ResolveAll = (
  hostname: string,
  options: LookupOptions,
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const resolveAll: ResolveAll = (hostname, options, callback) => lookup(hostname, { ...options, all: true }, callback);

/**
 * A `lookup` for net/http/https that resolves every address of the host and fails with a
 * ForbiddenAddressError when any of them is not allowed. Checking while connecting, on the
 * addresses actually used, leaves no window for DNS rebinding between a check and the connection.
 * (A literal IP host never reaches `lookup`: check it before connecting.)
 */
export function guardedLookup(policy: AddressPolicy, resolve: ResolveAll = resolveAll): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, options, (error, addresses) => {
      if (error) return callback(error, '');
      try {
        for (const { address } of addresses) assertAllowedAddress(address, policy, hostname);
      } catch (refusal) {
        return callback(refusal as Error, '');
      }
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  };
}
