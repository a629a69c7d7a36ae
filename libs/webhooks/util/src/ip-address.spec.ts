import { formatIpv4, inCidr, parseCidr, parseIp } from './ip-address';

describe('parseIp', () => {
  it.each([
    ['0.0.0.0', 4, 0n],
    ['127.0.0.1', 4, 0x7f000001n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['1::', 6, 1n << 112n],
    ['2001:db8::8:800:200c:417a', 6, 0x20010db80000000000080800200c417an],
    ['2001:DB8:0:0:8:800:200C:417A', 6, 0x20010db80000000000080800200c417an],
    ['::ffff:127.0.0.1', 6, 0xffff7f000001n],
    ['::ffff:7f00:1', 6, 0xffff7f000001n],
    ['0:0:0:0:0:ffff:7f00:0001', 6, 0xffff7f000001n],
    ['64:ff9b::10.0.0.1', 6, (0x64ff9bn << 96n) | 0x0a000001n],
    ['fe80::1%eth0', 6, (0xfe80n << 112n) | 1n],
  ])('reads %s', (text, version, value) => {
    expect(parseIp(text)).toEqual({ version, value });
  });

  it.each(['', 'localhost', '127.1', '2130706433', '0x7f.0.0.1', '256.0.0.1', '1.2.3', ':::', '1::2::3', '[::1]', '12345::'])('refuses %p', (text) => {
    expect(parseIp(text)).toBeUndefined();
  });
});

describe('CIDR blocks', () => {
  const ip = (text: string) => {
    const parsed = parseIp(text);
    if (!parsed) throw new Error(`not an IP: ${text}`);
    return parsed;
  };

  it('matches by prefix, within one IP version', () => {
    const block = parseCidr('172.16.0.0/12');
    expect(inCidr(ip('172.31.255.255'), block)).toBe(true);
    expect(inCidr(ip('172.32.0.0'), block)).toBe(false);
    expect(inCidr(ip('::ffff:172.16.0.1'), block)).toBe(false);
    expect(inCidr(ip('8.8.8.8'), parseCidr('0.0.0.0/0'))).toBe(true);
    expect(inCidr(ip('::1'), parseCidr('::1/128'))).toBe(true);
  });

  it('refuses malformed blocks', () => {
    expect(() => parseCidr('10.0.0.0')).toThrow(/CIDR/);
    expect(() => parseCidr('nope/8')).toThrow(/CIDR/);
  });

  it('formats IPv4 numbers', () => {
    expect(formatIpv4(0xc0a80101n)).toBe('192.168.1.1');
  });
});
