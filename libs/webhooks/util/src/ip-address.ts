import { isIPv4, isIPv6 } from 'node:net';

/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface ParsedIp {
  version: 4 | 6;
  value: bigint;
}

/** A CIDR block, e.g. `10.0.0.0/8` or `fc00::/7`. */
export interface Cidr {
  version: 4 | 6;
  network: bigint;
  prefix: number;
}

/** Parses dotted-quad IPv4 or any textual IPv6 form (`::`, embedded IPv4, a `%zone`); else undefined. */
export function parseIp(text: string): ParsedIp | undefined {
  if (isIPv4(text)) return { version: 4, value: parseIpv4(text) };
  const address = text.replace(/%.*$/, '');
  if (isIPv6(address)) return { version: 6, value: parseIpv6(address) };
  return undefined;
}

export function parseCidr(text: string): Cidr {
  const [address, prefix] = text.split('/');
  const parsed = parseIp(address);
  if (!parsed || !/^\d+$/.test(prefix)) throw new Error(`Not a CIDR block: ${text}`);
  return { version: parsed.version, network: parsed.value, prefix: Number(prefix) };
}

export function inCidr(ip: ParsedIp, cidr: Cidr): boolean {
  if (ip.version !== cidr.version) return false;
  const hostBits = BigInt((ip.version === 4 ? 32 : 128) - cidr.prefix);
  return ip.value >> hostBits === cidr.network >> hostBits;
}

export function formatIpv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

function parseIpv4(text: string): bigint {
  return text.split('.').reduce((value, octet) => (value << 8n) | BigInt(Number(octet)), 0n);
}

/** Expands `::` and a dotted IPv4 tail into eight 16-bit groups. */
function parseIpv6(text: string): bigint {
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = ipv6Groups(head);
  const right = tail === undefined ? [] : ipv6Groups(tail);
  const missing = 8 - left.length - right.length;
  const groups = [...left, ...Array<bigint>(tail === undefined ? 0 : missing).fill(0n), ...right];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

function ipv6Groups(part: string): bigint[] {
  if (part === '') return [];
  return part.split(':').flatMap((group) => {
    if (!group.includes('.')) return [BigInt(parseInt(group, 16))];
    const v4 = parseIpv4(group);
    return [v4 >> 16n, v4 & 0xffffn];
  });
}
