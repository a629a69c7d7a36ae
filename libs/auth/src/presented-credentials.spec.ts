import { readPresentedCredentials } from './presented-credentials';

const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('readPresentedCredentials', () => {
  it('reads the key pair headers', () => {
    expect(readPresentedCredentials({ 'x-api-key': 'k', 'x-api-secret': 's' })).toEqual({
      kind: 'key-pair',
      key: 'k',
      secret: 's',
    });
  });

  it('refuses half a key pair', () => {
    expect(readPresentedCredentials({ 'x-api-key': 'k' })).toEqual({ kind: 'malformed' });
    expect(readPresentedCredentials({ 'x-api-secret': 's' })).toEqual({ kind: 'malformed' });
  });

  it('reads Basic, with a colon allowed in the secret', () => {
    expect(readPresentedCredentials({ authorization: `Basic ${b64('key:se:cret')}` })).toEqual({
      kind: 'key-pair',
      key: 'key',
      secret: 'se:cret',
    });
  });

  it('reads Bearer base64 key:secret and Bearer JWT', () => {
    expect(readPresentedCredentials({ authorization: `Bearer ${b64('key:secret')}` })).toEqual({
      kind: 'key-pair',
      key: 'key',
      secret: 'secret',
    });
    expect(readPresentedCredentials({ authorization: 'bearer aaa.bbb.ccc' })).toEqual({ kind: 'jwt', token: 'aaa.bbb.ccc' });
    expect(readPresentedCredentials({ authorization: 'Bearer aaa.bbb.' })).toEqual({ kind: 'jwt', token: 'aaa.bbb.' });
  });

  it.each(['Basic', 'Basic !!!', `Basic ${b64('nocolon')}`, `Basic ${b64(':secret')}`, `Basic ${b64('key:')}`, 'Digest abc', 'Bearer a b'])(
    'calls %p malformed',
    (authorization) => {
      expect(readPresentedCredentials({ authorization })).toEqual({ kind: 'malformed' });
    },
  );

  it('sees no credentials when none are sent', () => {
    expect(readPresentedCredentials({})).toEqual({ kind: 'none' });
  });
});
