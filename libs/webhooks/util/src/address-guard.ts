import { formatIpv4, inCidr, parseCidr, parseIp, type ParsedIp } from './ip-address';

export type AddressKind = 'public' | 'loopback' | 'private' | 'link-local' | 'reserved';

/**
 * Which non-public addresses a webhook may reach. Loopback is for local development and tests;
 * private covers RFC 1918, CGNAT and IPv6 ULA. Link-local (cloud metadata lives at
 * 169.254.169.254) and reserved addresses are never allowed.
 */
export interface AddressPolicy {
  allowLoopback: boolean;
  allowPrivate: boolean;
}

export class ForbiddenAddressError extends Error {
  override readonly name = 'ForbiddenAddressError';
}

type Rule = readonly [cidr: string, kind: Exclude<AddressKind, 'public'> | 'embedded-ipv4'];

// First match wins. IANA's special-purpose registries, with everything not routable on the
// internet counted as reserved.
const IPV4_RULES: readonly Rule[] = [
  ['127.0.0.0/8', 'loopback'],
  ['0.0.0.0/8', 'reserved'], // "this network"
  ['10.0.0.0/8', 'private'],
  ['172.16.0.0/12', 'private'],
  ['192.168.0.0/16', 'private'],
  ['100.64.0.0/10', 'private'], // CGNAT
  ['169.254.0.0/16', 'link-local'],
  ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
  ['192.0.2.0/24', 'reserved'], // TEST-NET-1
  ['192.88.99.0/24', 'reserved'], // deprecated 6to4 relay anycast
  ['198.18.0.0/15', 'reserved'], // benchmarking
  ['198.51.100.0/24', 'reserved'], // TEST-NET-2
  ['203.0.113.0/24', 'reserved'], // TEST-NET-3
  ['224.0.0.0/4', 'reserved'], // multicast
  ['240.0.0.0/4', 'reserved'], // future use, and 255.255.255.255
];

const IPV6_RULES: readonly Rule[] = [
  ['::/128', 'reserved'], // unspecified
  ['::1/128', 'loopback'],
  ['::ffff:0:0/96', 'embedded-ipv4'], // IPv4-mapped
  ['64:ff9b::/96', 'embedded-ipv4'], // NAT64 well-known prefix
  ['2002::/16', 'embedded-ipv4'], // 6to4: the IPv4 address follows the prefix
  ['64:ff9b:1::/48', 'private'], // local-use NAT64
  ['::/8', 'reserved'], // IPv4-compatible (deprecated) and the rest of ::/8
  ['fc00::/7', 'private'], // unique local
  ['fec0::/10', 'private'], // site-local (deprecated)
  ['fe80::/10', 'link-local'],
  ['ff00::/8', 'reserved'], // multicast
  ['2001:db8::/32', 'reserved'], // documentation
  ['3fff::/20', 'reserved'], // documentation (RFC 9637)
  ['2001::/23', 'reserved'], // IETF protocol assignments, Teredo included
];

const GLOBAL_UNICAST_V6 = parseCidr('2000::/3');
const compile = (rules: readonly Rule[]) => rules.map(([cidr, kind]) => ({ cidr: parseCidr(cidr), kind }));
const RULES = { 4: compile(IPV4_RULES), 6: compile(IPV6_RULES) };

/** Classifies an IPv4 or IPv6 address; an IPv6 address that embeds an IPv4 one is classified as that one. */
export function classifyAddress(ip: string): AddressKind {
  const parsed = parseIp(ip);
  if (!parsed) throw new TypeError(`${ip} is not an IP address`);
  return classify(parsed).kind;
}

/** Whether the policy lets a webhook connect to this address; false for anything not an IP address. */
export function isAllowed(ip: string, policy: AddressPolicy): boolean {
  const parsed = parseIp(ip);
  return parsed !== undefined && kindAllowed(classify(parsed).kind, policy);
}

/** Throws a ForbiddenAddressError naming the address and its kind unless the policy allows it. */
export function assertAllowedAddress(ip: string, policy: AddressPolicy, hostname?: string): void {
  const parsed = parseIp(ip);
  if (!parsed) throw new ForbiddenAddressError(`${ip} is not an IP address`);
  const { kind, embedded } = classify(parsed);
  if (kindAllowed(kind, policy)) return;
  const subject = hostname && hostname !== ip ? `${hostname} resolves to ${ip}, which` : ip;
  const via = embedded ? ` (it embeds ${embedded})` : '';
  throw new ForbiddenAddressError(`${subject} is a ${kind} address${via}`);
}

function kindAllowed(kind: AddressKind, policy: AddressPolicy): boolean {
  if (kind === 'public') return true;
  if (kind === 'loopback') return policy.allowLoopback;
  if (kind === 'private') return policy.allowPrivate;
  return false;
}

function classify(ip: ParsedIp): { kind: AddressKind; embedded?: string } {
  const rule = RULES[ip.version].find(({ cidr }) => inCidr(ip, cidr));
  if (rule?.kind === 'embedded-ipv4') {
    const v4 = embeddedIpv4(ip.value, rule.cidr.prefix);
    return { kind: classify({ version: 4, value: v4 }).kind, embedded: formatIpv4(v4) };
  }
  if (rule) return { kind: rule.kind };
  if (ip.version === 6 && !inCidr(ip, GLOBAL_UNICAST_V6)) return { kind: 'reserved' };
  return { kind: 'public' };
}

/** The 32 bits right after the prefix (the last 32 for a /96, bits 16–47 for 6to4's /16). */
function embeddedIpv4(value: bigint, prefix: number): bigint {
  return (value >> BigInt(128 - prefix - 32)) & 0xffffffffn;
}

/**
 * Checks the shape of a webhook URL: http or https, a host, and no `user:password@` (it would be
 * sent in the clear to whoever the host turns out to be, and end up in logs). Any port is allowed:
 * the SSRF boundary is the address, checked after DNS resolution when connecting, and a port list
 * would break legitimate receivers (8080, 8443, …) without protecting anything the address check
 * does not. With a policy, a literal IP host is checked as well, so an obviously internal URL is
 * refused when it is configured rather than on each delivery.
 */
export function checkWebhookUrl(url: string, policy?: AddressPolicy): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ForbiddenAddressError('the webhook URL is not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new ForbiddenAddressError(`${parsed.protocol} URLs are not allowed, only http: and https:`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    throw new ForbiddenAddressError('a webhook URL may not carry credentials (user:password@)');
  }
  const host = hostOf(parsed);
  if (policy && parseIp(host)) assertAllowedAddress(host, policy);
  if (policy && !policy.allowLoopback && isLocalhostName(host)) throw new ForbiddenAddressError(`${host} is a loopback address`);
  return parsed;
}

/** `localhost` and every name under it always mean this machine (RFC 6761). */
function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** The URL's hostname without the brackets of an IPv6 literal. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}
