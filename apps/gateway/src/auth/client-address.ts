import { isIP } from 'node:net';
import { classifyAddress } from '@mp/webhooks';

/** Proxies the gateway believes about who called them: on this machine or a private network. */
const PROXY_KINDS: ReadonlySet<string> = new Set(['loopback', 'private', 'link-local']);

/**
 * Who is calling, for the authentication throttle: the peer, or, when the peer is a proxy on a
 * loopback, private or link-local address (an Ingress, a reverse proxy, docker's port forwarding),
 * the address it says it was called from — the last entry of X-Forwarded-For that is not such a
 * proxy itself; an entry that is no address ends the walk at the proxy before it. Null for a
 * caller on this machine with nothing forwarded (`npm start`, tests, health probes): not
 * throttled per address. IPv6 addresses count per /64, what one subscriber usually holds.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined): string | null {
  const forwarded = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  let hop = normalize(peer ?? '');
  if (hop === null) return null;
  for (;;) {
    const kind = classifyAddress(hop);
    if (!PROXY_KINDS.has(kind)) return addressKey(hop);
    const next = forwarded.length > 0 ? normalize(forwarded.pop() ?? '') : undefined;
    if (next === undefined) return kind === 'loopback' ? null : addressKey(hop);
    if (next === null) return addressKey(hop);
    hop = next;
  }
}

/** An IP address as text, without an IPv4-mapped prefix or a zone; null for anything else. */
function normalize(text: string): string | null {
  const address = text.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped && isIP(mapped[1]) === 4) return mapped[1];
  return isIP(address) === 0 ? null : address.toLowerCase();
}

/** IPv4 as it is; IPv6 as its /64. */
function addressKey(address: string): string {
  if (isIP(address) === 4) return address;
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const groups = (part: string | undefined) => (part ? part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group])) : []);
  const left = groups(head);
  const right = groups(tail);
  const all = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return `${all
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
