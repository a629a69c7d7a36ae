import { postWebhook } from './post-webhook';

// Attempts refused before anything is sent: no server needed.
describe('postWebhook, refused before sending', () => {
  const policy = { allowLoopback: false, allowPrivate: false };
  const attempt = (url: string, headers: Record<string, string> = {}) => postWebhook({ url, body: '{}', headers, policy });

  it.each([
    ['ftp://example.com/hook', 'forbidden address: ftp: URLs are not allowed, only http: and https:'],
    ['https://user:pw@example.com/hook', 'forbidden address: a webhook URL may not carry credentials (user:password@)'],
    ['nonsense', 'forbidden address: the webhook URL is not a valid URL'],
    ['http://169.254.169.254/latest/meta-data', 'forbidden address: 169.254.169.254 is a link-local address'],
    ['http://[fd00::1]:8080/', 'forbidden address: fd00::1 is a private address'],
    ['http://0.0.0.0:80/', 'forbidden address: 0.0.0.0 is a reserved address'],
  ])('reports %s as a failed attempt that no retry can pass', async (url, error) => {
    const result = await attempt(url);
    expect(result).toEqual({ ok: false, status: null, error, responseSnippet: null, durationMs: expect.any(Number), permanent: true });
  });

  it('reports a header Node refuses to send instead of throwing', async () => {
    const result = await attempt('http://93.184.216.34/', { 'x-bad': 'a\r\nInjected: yes' });
    expect(result).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/^invalid request: /), permanent: false });
  });
});
