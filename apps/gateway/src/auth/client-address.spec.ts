import { clientAddress } from './client-address';

describe('clientAddress', () => {
  it('is the peer when it is on the internet, whatever it forwards', () => {
    expect(clientAddress('8.8.8.8', undefined)).toBe('8.8.8.8');
    expect(clientAddress('8.8.8.8', '1.2.3.4')).toBe('8.8.8.8');
    expect(clientAddress('::ffff:8.8.4.4', undefined)).toBe('8.8.4.4');
  });

  it('believes a proxy on a private or loopback address about who called it', () => {
    expect(clientAddress('10.0.0.7', '1.2.3.4')).toBe('1.2.3.4');
    expect(clientAddress('127.0.0.1', '198.51.100.7')).toBe('198.51.100.7');
    expect(clientAddress('::ffff:172.17.0.1', ' 1.2.3.4 ')).toBe('1.2.3.4');
    // Through two proxies: the last entry that is not a proxy; what the client wrote itself before it is not believed.
    expect(clientAddress('10.0.0.7', '6.6.6.6, 1.2.3.4, 10.1.2.3')).toBe('1.2.3.4');
    expect(clientAddress('10.0.0.7', ['6.6.6.6, 1.2.3.4', '10.1.2.3'])).toBe('1.2.3.4');
  });

  it('stops at the proxy before an entry that is no address', () => {
    expect(clientAddress('10.0.0.7', 'unknown')).toBe('10.0.0.7');
    expect(clientAddress('10.0.0.7', '1.2.3.4, garbage')).toBe('10.0.0.7');
    expect(clientAddress('127.0.0.1', 'not-an-ip')).toBe('127.0.0.1');
  });

  it('is null for a caller on this machine with nothing forwarded, and the address of a private one', () => {
    expect(clientAddress('127.0.0.1', undefined)).toBeNull();
    expect(clientAddress('::1', '')).toBeNull();
    expect(clientAddress('192.168.1.20', undefined)).toBe('192.168.1.20');
    expect(clientAddress(undefined, '1.2.3.4')).toBeNull();
    expect(clientAddress('', undefined)).toBeNull();
  });

  it('counts IPv6 callers per /64', () => {
    expect(clientAddress('2001:4860:4860::8888', undefined)).toBe('2001:4860:4860:0::/64');
    expect(clientAddress('2001:4860:4860:0:1:2:3:4', undefined)).toBe('2001:4860:4860:0::/64');
    expect(clientAddress('2a00:1450:4001:81b::200e', undefined)).toBe('2a00:1450:4001:81b::/64');
    expect(clientAddress('2A00:1450::1:2:3:4:5', undefined)).toBe('2a00:1450:0:1::/64');
    expect(clientAddress('fd00::1', '2a00:1450:4001:81b:1:2:3:4')).toBe('2a00:1450:4001:81b::/64');
  });
});
