import { FakeApi } from '../../test/fake-api';
import { ApiClient, ApiError } from './client';

function clientWith(api: FakeApi, onUnauthorized = jest.fn()) {
  return { client: new ApiClient({ baseUrl: '/dashboard/api', fetch: api.fetch, onUnauthorized }), onUnauthorized };
}

describe('ApiClient', () => {
  it('sends the session CSRF token on every change and never on a read', async () => {
    const api = new FakeApi()
      .on('GET /keys', { status: 200, body: { items: [] } })
      .on('POST /keys', { status: 200, body: {} })
      .on('DELETE /keys/k1', { status: 200, body: {} });
    const { client } = clientWith(api);
    client.setCsrfToken('tok-1');
    await client.get('/keys');
    await client.post('/keys');
    await client.delete('/keys/k1');
    expect(api.sent('GET /keys')[0].headers['x-csrf-token']).toBeUndefined();
    expect(api.sent('POST /keys')[0].headers['x-csrf-token']).toBe('tok-1');
    expect(api.sent('DELETE /keys/k1')[0].headers['x-csrf-token']).toBe('tok-1');
    expect(api.sent('POST /keys')[0].headers['content-type']).toBe('application/json');
  });

  it('reports a 401 of a request that needed a session, and forgets the token', async () => {
    const api = new FakeApi().on('GET /keys', { status: 401, body: { error: 'Not signed in' } }).on('POST /keys', { status: 200, body: {} });
    const { client, onUnauthorized } = clientWith(api);
    client.setCsrfToken('tok-1');
    await expect(client.get('/keys')).rejects.toEqual(expect.objectContaining({ status: 401, message: 'Not signed in' }));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await client.post('/keys');
    expect(api.sent('POST /keys')[0].headers['x-csrf-token']).toBeUndefined();
  });

  it('leaves the 401 of a request that stands on its own (signing in) to its caller', async () => {
    const api = new FakeApi().on('POST /session', { status: 401, body: { error: 'Email or password is wrong' } });
    const { client, onUnauthorized } = clientWith(api);
    await expect(client.post('/session', { email: 'a@b.c', password: 'x' }, { needsSession: false })).rejects.toThrow('Email or password is wrong');
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it('reads the session again and retries once when the API refuses the CSRF token', async () => {
    const api = new FakeApi()
      .on('POST /keys', { status: 403, body: { error: 'CSRF token missing or wrong' } }, { status: 200, body: { id: 'k2' } })
      .on('GET /session', { status: 200, body: { user: {}, csrf_token: 'tok-2' } });
    const { client } = clientWith(api);
    client.setCsrfToken('tok-old');
    await expect(client.post('/keys')).resolves.toEqual({ id: 'k2' });
    expect(api.sent('POST /keys').map((request) => request.headers['x-csrf-token'])).toEqual(['tok-old', 'tok-2']);
  });

  it('does not retry another 403', async () => {
    const api = new FakeApi().on('DELETE /members/m1', { status: 403, body: { error: 'Only owners remove members' } });
    const { client } = clientWith(api);
    await expect(client.delete('/members/m1')).rejects.toThrow('Only owners remove members');
    expect(api.sent('DELETE /members/m1')).toHaveLength(1);
    expect(api.sent('GET /session')).toHaveLength(0);
  });

  it("keeps a refusal's fields, such as a lock's retry_after", async () => {
    const api = new FakeApi().on('POST /session', { status: 429, body: { error: 'Too many failed sign-ins', retry_after: 840 } });
    const { client } = clientWith(api);
    const error = await client.post('/session', {}, { needsSession: false }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).retryAfterSeconds).toBe(840);
  });

  it('says the server cannot be reached when no answer comes, and names the status of an answer without a text', async () => {
    const offline = new ApiClient({ baseUrl: '/dashboard/api', fetch: () => Promise.reject(new TypeError('Failed to fetch')) });
    await expect(offline.get('/keys')).rejects.toEqual(expect.objectContaining({ status: 0, message: expect.stringMatching(/cannot be reached/) }));
    const api = new FakeApi().on('GET /keys', { status: 502 });
    await expect(clientWith(api).client.get('/keys')).rejects.toThrow('The server answered 502.');
  });
});
