import { type AddressKind, assertAllowedAddress, checkWebhookUrl, classifyAddress, ForbiddenAddressError, isAllowed } from './address-guard';

const CLASSIFICATION: [string, AddressKind][] = [
  // IPv4 public
  ['8.8.8.8', 'public'],
  ['1.1.1.1', 'public'],
  ['93.184.216.34', 'public'],
  ['172.15.255.255', 'public'],
  ['172.32.0.0', 'public'],
  ['100.63.255.255', 'public'],
  ['100.128.0.0', 'public'],
  ['169.253.255.255', 'public'],
  ['192.167.255.255', 'public'],
  ['198.17.255.255', 'public'],
  ['198.20.0.0', 'public'],
  ['223.255.255.255', 'public'],
  // IPv4 loopback
  ['127.0.0.1', 'loopback'],
  ['127.255.255.254', 'loopback'],
  ['127.1.2.3', 'loopback'],
  // IPv4 private
  ['10.0.0.1', 'private'],
  ['10.255.255.255', 'private'],
  ['172.16.0.1', 'private'],
  ['172.31.255.255', 'private'],
  ['192.168.0.1', 'private'],
  ['192.168.255.255', 'private'],
  ['100.64.0.1', 'private'],
  ['100.127.255.255', 'private'],
  // IPv4 link-local (cloud metadata)
  ['169.254.169.254', 'link-local'],
  ['169.254.0.1', 'link-local'],
  // IPv4 reserved
  ['0.0.0.0', 'reserved'],
  ['0.1.2.3', 'reserved'],
  ['192.0.0.8', 'reserved'],
  ['192.0.2.1', 'reserved'],
  ['198.18.0.1', 'reserved'],
  ['198.19.255.255', 'reserved'],
  ['198.51.100.7', 'reserved'],
  ['203.0.113.9', 'reserved'],
  ['224.0.0.1', 'reserved'],
  ['239.255.255.250', 'reserved'],
  ['240.0.0.1', 'reserved'],
  ['255.255.255.255', 'reserved'],
  // IPv6 public
  ['2606:4700:4700::1111', 'public'],
  ['2001:4860:4860::8888', 'public'],
  ['2a00:1450:4007:80e::200e', 'public'],
  // IPv6 special
  ['::', 'reserved'],
  ['::1', 'loopback'],
  ['0:0:0:0:0:0:0:1', 'loopback'],
  ['fc00::1', 'private'],
  ['fd12:3456:789a::1', 'private'],
  ['fec0::1', 'private'],
  ['64:ff9b:1::a00:1', 'private'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local'],
  ['febf:ffff::1', 'link-local'],
  ['ff02::1', 'reserved'],
  ['ff05::1:3', 'reserved'],
  ['2001:db8::1', 'reserved'],
  ['3fff::1', 'reserved'],
  ['2001::1', 'reserved'],
  ['100::1', 'reserved'],
  ['::127.0.0.1', 'reserved'],
  ['::8.8.8.8', 'reserved'],
  ['4000::1', 'reserved'],
  // IPv4-mapped, dotted and hex, and NAT64 and 6to4: classified as the IPv4 address inside
  ['::ffff:127.0.0.1', 'loopback'],
  ['::ffff:7f00:1', 'loopback'],
  ['::FFFF:7F00:0001', 'loopback'],
  ['0:0:0:0:0:ffff:7f00:1', 'loopback'],
  ['::ffff:10.1.2.3', 'private'],
  ['::ffff:a01:203', 'private'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['::ffff:a9fe:a9fe', 'link-local'],
  ['::ffff:0.0.0.0', 'reserved'],
  ['::ffff:8.8.8.8', 'public'],
  ['::ffff:808:808', 'public'],
  ['64:ff9b::127.0.0.1', 'loopback'],
  ['64:ff9b::7f00:1', 'loopback'],
  ['64:ff9b::192.168.1.1', 'private'],
  ['64:ff9b::8.8.8.8', 'public'],
  ['2002:7f00:1::1', 'loopback'],
  ['2002:a9fe:a9fe::', 'link-local'],
  ['2002:808:808::1', 'public'],
];

describe('classifyAddress', () => {
  it.each(CLASSIFICATION)('%s is %s', (ip, kind) => {
    expect(classifyAddress(ip)).toBe(kind);
  });

  it.each(['localhost', 'example.com', '[::1]', '127.1', ''])('refuses %p, which is not an IP address', (text) => {
    expect(() => classifyAddress(text)).toThrow(TypeError);
  });
});

describe('isAllowed', () => {
  const none = { allowLoopback: false, allowPrivate: false };
  const all = { allowLoopback: true, allowPrivate: true };

  it('allows public addresses under any policy', () => {
    expect(isAllowed('8.8.8.8', none)).toBe(true);
    expect(isAllowed('2606:4700:4700::1111', none)).toBe(true);
  });

  it('allows loopback and private only when the policy says so, each on its own', () => {
    expect(isAllowed('127.0.0.1', none)).toBe(false);
    expect(isAllowed('::1', none)).toBe(false);
    expect(isAllowed('127.0.0.1', { allowLoopback: true, allowPrivate: false })).toBe(true);
    expect(isAllowed('10.0.0.1', { allowLoopback: true, allowPrivate: false })).toBe(false);
    expect(isAllowed('fd00::1', { allowLoopback: false, allowPrivate: true })).toBe(true);
    expect(isAllowed('::ffff:127.0.0.1', { allowLoopback: false, allowPrivate: true })).toBe(false);
  });

  it('never allows link-local, reserved or non-addresses', () => {
    for (const ip of ['169.254.169.254', 'fe80::1', '0.0.0.0', '::', '224.0.0.1', 'ff02::1', 'localhost', '']) {
      expect(isAllowed(ip, all)).toBe(false);
    }
  });
});

describe('assertAllowedAddress', () => {
  const none = { allowLoopback: false, allowPrivate: false };

  it('names the address and why it is refused', () => {
    expect(() => assertAllowedAddress('127.0.0.1', none)).toThrow(new ForbiddenAddressError('127.0.0.1 is a loopback address'));
    expect(() => assertAllowedAddress('::ffff:a9fe:a9fe', none)).toThrow('::ffff:a9fe:a9fe is a link-local address (it embeds 169.254.169.254)');
    expect(() => assertAllowedAddress('10.0.0.7', none, 'intranet.example')).toThrow('intranet.example resolves to 10.0.0.7, which is a private address');
  });

  it('passes allowed addresses', () => {
    expect(() => assertAllowedAddress('8.8.8.8', none)).not.toThrow();
  });
});

describe('checkWebhookUrl', () => {
  it('accepts http and https URLs with any port', () => {
    expect(checkWebhookUrl('https://hooks.example.com/sms?x=1').href).toBe('https://hooks.example.com/sms?x=1');
    expect(checkWebhookUrl('http://hooks.example.com:8080/').port).toBe('8080');
    expect(checkWebhookUrl('https://hooks.example.com:22/').port).toBe('22');
  });

  it.each([
    ['not a url', /not a valid URL/],
    ['ftp://example.com/', /ftp: URLs are not allowed/],
    ['file:///etc/passwd', /file: URLs are not allowed/],
    ['gopher://example.com/', /gopher: URLs are not allowed/],
    ['https://user:pass@example.com/', /credentials/],
    ['https://user@example.com/', /credentials/],
    ['https://:pass@example.com/', /credentials/],
  ])('refuses %p', (url, message) => {
    expect(() => checkWebhookUrl(url)).toThrow(ForbiddenAddressError);
    expect(() => checkWebhookUrl(url)).toThrow(message);
  });

  it('does not echo credentials in its error', () => {
    expect(() => checkWebhookUrl('https://alice:s3cret@example.com/')).toThrow(expect.objectContaining({ message: expect.not.stringContaining('s3cret') }));
  });

  it('checks a literal IP host against the policy when given one, in every notation the URL parser reads', () => {
    const none = { allowLoopback: false, allowPrivate: false };
    expect(() => checkWebhookUrl('http://127.0.0.1:3000/', none)).toThrow('127.0.0.1 is a loopback address');
    expect(() => checkWebhookUrl('http://[::1]/', none)).toThrow('::1 is a loopback address');
    expect(() => checkWebhookUrl('http://[::ffff:7f00:1]/', none)).toThrow(/loopback/);
    expect(() => checkWebhookUrl('http://2130706433/', none)).toThrow('127.0.0.1 is a loopback address');
    expect(() => checkWebhookUrl('http://0x7f.1/', none)).toThrow('127.0.0.1 is a loopback address');
    expect(() => checkWebhookUrl('http://169.254.169.254/latest/meta-data', { allowLoopback: true, allowPrivate: true })).toThrow(/link-local/);
    expect(checkWebhookUrl('http://127.0.0.1:3000/', { allowLoopback: true, allowPrivate: false }).port).toBe('3000');
    expect(checkWebhookUrl('http://hooks.example.com/', none).hostname).toBe('hooks.example.com');
  });

  it('takes localhost and the names under it as loopback literals (RFC 6761), as a resolver would', () => {
    const none = { allowLoopback: false, allowPrivate: false };
    for (const url of ['http://localhost/', 'http://LOCALHOST:8080/', 'http://api.localhost./x']) {
      expect(() => checkWebhookUrl(url, none)).toThrow(/is a loopback address/);
      expect(checkWebhookUrl(url, { allowLoopback: true, allowPrivate: false }).protocol).toBe('http:');
    }
    expect(checkWebhookUrl('http://localhost.example.com/', none).hostname).toBe('localhost.example.com');
  });
});
