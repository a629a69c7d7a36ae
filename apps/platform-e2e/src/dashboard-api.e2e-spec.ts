import { admin, eventually, runAdmin, startStack, type RunningStack } from '@mp/testing';
import { ApiClient, createCompany, keyPairHeaders, type Company, type Json } from './support/api-client';
import { createUser, DashboardClient, PASSWORD, sessionSetCookie, uniqueEmail } from './support/dashboard-client';

/**
 * The dashboard API through the real gateway (PostgreSQL, Redis): sign-in and its throttle,
 * the session cookie, CSRF, sign-out, keys that work on the public API until revoked, roles,
 * invitations, members and the audit log. Credentials are not cached (AUTH_CACHE_TTL_MS=0),
 * so a revoked key is refused at once.
 */
describe('dashboard API', () => {
  let stack: RunningStack;
  let acme: Company;
  let globex: Company;
  let acmeOwner: string;
  let globexOwner: string;
  let operator: string;
  const url = () => stack.gatewayUrl;
  const browser = (headers?: Record<string, string>) => new DashboardClient(url, headers);
  const api = new ApiClient(url);

  async function signedIn(email: string): Promise<DashboardClient> {
    const client = browser();
    expect((await client.signIn(email)).status).toBe(200);
    return client;
  }

  beforeAll(async () => {
    await admin(['db:migrate']);
    acme = await createCompany('Acme', '10');
    globex = await createCompany('Globex', '10');
    acmeOwner = uniqueEmail('acme-owner');
    globexOwner = uniqueEmail('globex-owner');
    operator = uniqueEmail('operator');
    await createUser(acme.company_id, acmeOwner);
    await createUser(globex.company_id, globexOwner);
    await createUser(null, operator);
    stack = await startStack({ apps: ['gateway'], env: { AUTH_CACHE_TTL_MS: '0' } });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  describe('signing in', () => {
    it('answers the user and a CSRF token, and sets an HttpOnly, SameSite=Lax session cookie for /dashboard', async () => {
      const client = browser();
      const answer = await client.signIn(acmeOwner.toUpperCase());
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({
        user: { id: expect.any(String), email: acmeOwner, role: 'owner', company: { id: acme.company_id, name: 'Acme', suspended: false } },
        csrf_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      });
      const cookie = sessionSetCookie(answer.headers) ?? '';
      const attributes = cookie.split(/;\s*/).slice(1);
      expect(cookie).toMatch(/^mp_session=[A-Za-z0-9_-]{43};/);
      expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/dashboard', 'Max-Age=43200']));
      expect(attributes.map((attribute) => attribute.toLowerCase())).not.toContain('secure'); // NODE_ENV=test: plain HTTP on loopback
      const session = await client.get('/session');
      expect(session.status).toBe(200);
      expect(session.body).toEqual(answer.body);
    });

    it('refuses a wrong password and an unknown email alike, and a request without a live session', async () => {
      for (const [email, password] of [
        [acmeOwner, `${PASSWORD}!`],
        [uniqueEmail('nobody'), PASSWORD],
      ]) {
        const answer = await browser().signIn(email, password);
        expect(answer.status).toBe(401);
        expect(answer.body).toEqual({ error: 'Email or password is wrong' });
        expect(sessionSetCookie(answer.headers)).toBeUndefined();
      }
      expect((await browser().get('/keys')).body).toEqual({ error: 'Not signed in' });
      expect(await browser().get('/session')).toMatchObject({ status: 200, body: { user: null, csrf_token: null } });
      const forged = browser();
      forged.token = 'A'.repeat(43);
      expect((await forged.get('/keys')).status).toBe(401);
      const nobody = await forged.get('/session');
      expect(nobody.body).toEqual({ user: null, csrf_token: null });
      expect(sessionSetCookie(nobody.headers)).toMatch(/^mp_session=;.*Max-Age=0/);
      const invalid = await browser().post('/session', { email: acmeOwner }, { csrf: null });
      expect(invalid.status).toBe(400);
      expect(invalid.body).toMatchObject({ error: 'password is required' });
    });

    it('locks an account after 5 failed sign-ins, right password or wrong, with the minutes to wait', async () => {
      const locked = uniqueEmail('locked');
      await createUser(acme.company_id, locked, 'developer');
      for (let i = 0; i < 5; i++) expect((await browser().signIn(locked, 'wrong password')).status).toBe(401);
      const refused = await browser().signIn(locked);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        error: expect.stringMatching(/^Too many failed sign-ins for this account; try again in 1[45] minutes$/),
        retry_after: expect.any(Number),
      });
      expect(refused.body['retry_after']).toBeGreaterThan(800);
      expect(refused.headers.get('retry-after')).toBe(String(refused.body['retry_after']));
      expect((await browser().signIn(acmeOwner)).status).toBe(200);
    });

    it('refuses every sign-in from an address after 20 failures from it, while other addresses sign in', async () => {
      const from = (address: string) => browser({ 'x-forwarded-for': address });
      for (let i = 0; i < 20; i++) expect((await from('198.51.100.7').signIn(uniqueEmail('guess'), 'wrong password')).status).toBe(401);
      const refused = await from('198.51.100.7').signIn(globexOwner);
      expect(refused.status).toBe(429);
      expect(refused.body['error']).toMatch(/^Too many failed sign-ins from this address; try again in \d+ minutes?$/);
      expect((await from('198.51.100.8').signIn(globexOwner)).status).toBe(200);
    });
  });

  describe('a session', () => {
    it('refuses a change without the session’s CSRF token, after checking the session', async () => {
      const owner = await signedIn(acmeOwner);
      const other = await signedIn(acmeOwner);
      for (const csrf of [null, 'wrong', other.csrfToken ?? '']) {
        const answer = await owner.post('/keys', undefined, { csrf });
        expect(answer.status).toBe(403);
        expect(answer.body).toEqual({ error: 'CSRF token missing or wrong' });
      }
      const anonymous = await owner.post('/keys', undefined, { anonymous: true, csrf: null });
      expect(anonymous.status).toBe(401);
      expect((await owner.delete('/session', { csrf: null })).status).toBe(403);
      expect((await owner.get('/session')).status).toBe(200);
    });

    it('ends at sign-out: the cookie is cleared and the token refused', async () => {
      const client = await signedIn(acmeOwner);
      const token = client.token;
      const answer = await client.delete('/session');
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ signed_out: true });
      expect(sessionSetCookie(answer.headers)).toMatch(/^mp_session=;.*Max-Age=0/);
      client.token = token;
      expect((await client.get('/keys')).status).toBe(401);
      expect((await client.get('/session')).body).toEqual({ user: null, csrf_token: null });
    });

    it('ends everywhere at once: every session of the user', async () => {
      const user = uniqueEmail('everywhere');
      await createUser(acme.company_id, user, 'developer');
      const laptop = await signedIn(user);
      const phone = await signedIn(user);
      const bystander = await signedIn(acmeOwner);
      const answer = await laptop.delete('/sessions');
      expect(answer.body).toEqual({ signed_out: true, sessions: 2 });
      expect((await phone.get('/keys')).status).toBe(401);
      expect((await bystander.get('/session')).status).toBe(200);
    });
  });

  describe('API keys', () => {
    it('creates a key that the public API accepts, records its use, and revokes it so the public API refuses it', async () => {
      const owner = await signedIn(acmeOwner);
      const created = await owner.post('/keys');
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        id: expect.any(String),
        api_key: expect.stringMatching(/^mpk_/),
        api_secret: expect.any(String),
        created_at: expect.any(String),
      });
      const pair = { api_key: String(created.body['api_key']), api_secret: String(created.body['api_secret']) };
      const keyOf = async () => ((await owner.get('/keys')).body['items'] as Json[]).find((key) => key['id'] === created.body['id']);
      expect(await keyOf()).toEqual({
        id: created.body['id'],
        api_key: pair.api_key,
        created_at: created.body['created_at'],
        last_used_at: null,
        revoked_at: null,
      });

      expect((await api.get('/balance', { headers: keyPairHeaders(pair) })).status).toBe(200);
      const used = await eventually(keyOf, (key) => key?.['last_used_at'] !== null);
      expect(used?.['last_used_at']).toEqual(expect.any(String));

      const revoked = await owner.delete(`/keys/${String(created.body['id'])}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body).toEqual({ id: created.body['id'], revoked_at: expect.any(String) });
      expect((await api.get('/balance', { headers: keyPairHeaders(pair) })).status).toBe(401);
      expect((await owner.delete(`/keys/${String(created.body['id'])}`)).body).toEqual(revoked.body);
      expect((await keyOf())?.['revoked_at']).toBe(revoked.body['revoked_at']);
    });

    it("shows a company its own keys only: another company's key is not found", async () => {
      const owner = await signedIn(globexOwner);
      const items = (await owner.get('/keys')).body['items'] as Json[];
      expect(items.map((key) => key['api_key'])).toContain(globex.api_key);
      expect(items.map((key) => key['api_key'])).not.toContain(acme.api_key);
      const acmeKeys = (await (await signedIn(acmeOwner)).get('/keys')).body['items'] as Json[];
      const acmeKey = String(acmeKeys.find((key) => key['api_key'] === acme.api_key)?.['id']);
      expect(await owner.delete(`/keys/${acmeKey}`)).toMatchObject({ status: 404, body: { error: 'API key not found' } });
      expect(await owner.get(`/keys?company_id=${acme.company_id}`)).toMatchObject({ status: 404, body: { error: 'Company not found' } });
      expect((await api.get('/balance', { headers: keyPairHeaders(acme) })).status).toBe(200);
    });

    it('lets an operator act on any company it names', async () => {
      const op = await signedIn(operator);
      expect(await op.get('/keys')).toMatchObject({ status: 400, body: { error: 'company_id is required for an operator' } });
      expect((await op.get('/keys?company_id=00000000-0000-4000-8000-000000000000')).status).toBe(404);
      const items = (await op.get(`/keys?company_id=${globex.company_id}`)).body['items'] as Json[];
      expect(items.map((key) => key['api_key'])).toContain(globex.api_key);
    });
  });

  describe('members, invitations and the audit log', () => {
    it('invites a developer by a one-time link, who may work with keys but not change members', async () => {
      const owner = await signedIn(acmeOwner);
      const email = uniqueEmail('invited');
      const invitation = await owner.post('/invitations', { email, role: 'developer' });
      expect(invitation.status).toBe(200);
      expect(invitation.body).toEqual({
        id: expect.any(String),
        email,
        role: 'developer',
        expires_at: expect.any(String),
        link: expect.stringMatching(/^\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/),
      });
      expect(((await owner.get('/members')).body['invitations'] as Json[]).map((pending) => pending['email'])).toContain(email);
      expect((await owner.post('/invitations', { email: acmeOwner, role: 'developer' })).status).toBe(409);

      const token = String(invitation.body['link']).split('/').pop();
      const developer = browser();
      const joined = await developer.post(`/invitations/${token}/accept`, { password: PASSWORD }, { csrf: null });
      expect(joined.status).toBe(200);
      expect(joined.body).toMatchObject({ user: { email, role: 'developer', company: { id: acme.company_id, name: 'Acme' } } });
      expect((await developer.get('/session')).status).toBe(200);
      expect(await browser().post(`/invitations/${token}/accept`, { password: PASSWORD }, { csrf: null })).toMatchObject({
        status: 410,
        body: { error: 'Invitation already used' },
      });
      expect((await browser().post(`/invitations/${'x'.repeat(43)}/accept`, { password: PASSWORD }, { csrf: null })).status).toBe(404);

      expect((await developer.get('/keys')).status).toBe(200);
      expect((await developer.get('/members')).status).toBe(200);
      const members = (await developer.get('/members')).body['items'] as Json[];
      const ownerId = String(members.find((member) => member['email'] === acmeOwner)?.['id']);
      for (const refused of [
        await developer.post('/invitations', { email: uniqueEmail('x'), role: 'developer' }),
        await developer.delete(`/members/${ownerId}`),
        await developer.delete(`/invitations/${String(invitation.body['id'])}`),
      ]) {
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({ error: 'Your role does not allow this' });
      }
    });

    it('cancels a pending invitation, whose link then answers 404, for its own company only', async () => {
      const owner = await signedIn(acmeOwner);
      const invitation = await owner.post('/invitations', { email: uniqueEmail('withdrawn'), role: 'developer' });
      const id = String(invitation.body['id']);
      expect((await (await signedIn(globexOwner)).delete(`/invitations/${id}`)).status).toBe(404);
      expect(await owner.delete(`/invitations/${id}`)).toMatchObject({ status: 200, body: { id, cancelled: true } });
      expect(((await owner.get('/members')).body['invitations'] as Json[]).map((pending) => pending['id'])).not.toContain(id);
      const token = String(invitation.body['link']).split('/').pop();
      expect(await browser().post(`/invitations/${token}/accept`, { password: PASSWORD }, { csrf: null })).toMatchObject({
        status: 404,
        body: { error: 'Invitation not found' },
      });
      expect(await owner.delete(`/invitations/${id}`)).toMatchObject({ status: 404, body: { error: 'Invitation not found' } });
      expect((await owner.delete('/invitations/not-an-id')).status).toBe(404);
    });

    it('removes a member, whose sessions end at once, but never the last owner', async () => {
      const owner = await signedIn(acmeOwner);
      const email = uniqueEmail('leaving');
      const member = await createUser(acme.company_id, email, 'developer');
      const leaving = await signedIn(email);
      const removed = await owner.delete(`/members/${String(member['user_id'])}`);
      expect(removed.body).toEqual({ id: member['user_id'], removed: true });
      expect((await leaving.get('/keys')).status).toBe(401);
      expect((await browser().signIn(email)).status).toBe(401);
      const ownerId = String(((await owner.get('/session')).body['user'] as Json)['id']);
      expect(await owner.delete(`/members/${ownerId}`)).toMatchObject({ status: 409, body: { error: 'A company must keep at least one owner' } });
      expect((await (await signedIn(globexOwner)).delete(`/members/${ownerId}`)).status).toBe(404);
    });

    it('records every change of keys, members and balance, with who made it, newest first', async () => {
      await admin(['balance:topup', '--company', globex.company_id, '--amount', '2.5']);
      const cli = await admin(['key:create', '--company', globex.company_id]);
      const owner = await signedIn(globexOwner);
      const created = await owner.post('/keys');
      await owner.delete(`/keys/${String(created.body['id'])}`);
      const invited = uniqueEmail('audited');
      await owner.post('/invitations', { email: invited, role: 'owner' });
      const audit = await owner.get('/audit');
      expect(audit.status).toBe(200);
      const entries = (audit.body['items'] as Json[]).map((entry) => ({
        action: entry['action'],
        actor: (entry['actor'] as Json | null)?.['email'] ?? null,
        details: entry['details'],
      }));
      expect(entries.slice(0, 5)).toEqual([
        { action: 'member.invited', actor: globexOwner, details: expect.objectContaining({ email: invited, role: 'owner' }) },
        { action: 'key.revoked', actor: globexOwner, details: { key_id: created.body['id'], api_key: created.body['api_key'] } },
        { action: 'key.created', actor: globexOwner, details: { key_id: created.body['id'], api_key: created.body['api_key'] } },
        { action: 'key.created', actor: null, details: expect.objectContaining({ api_key: cli['api_key'] }) },
        { action: 'balance.topped_up', actor: null, details: { amount: 2.5, balance: 12.5 } },
      ]);
      expect(entries.map((entry) => entry.action)).toEqual(expect.arrayContaining(['member.created', 'company.created']));
      expect(audit.body['next_cursor']).toBeNull();
      expect((await owner.get('/audit?cursor=abc')).status).toBe(400);
      expect(((await (await signedIn(acmeOwner)).get('/audit')).body['items'] as Json[]).map((entry) => entry['action'])).toEqual(
        expect.arrayContaining(['member.invited', 'member.joined', 'member.removed', 'key.revoked']),
      );
    });
  });

  it('makes users from the command line, refusing a second account for one email', async () => {
    const email = uniqueEmail('cli');
    const made = await createUser(acme.company_id, email, 'developer');
    expect(made).toEqual({ user_id: expect.any(String), email, role: 'developer', company_id: acme.company_id });
    expect((await runAdmin(['user:create', '--company', acme.company_id, '--email', email, '--password', PASSWORD])).code).toBe(1);
    expect((await runAdmin(['user:create', '--company', acme.company_id, '--email', uniqueEmail('x'), '--password', 'short'])).code).toBe(1);
    expect((await runAdmin(['user:create', '--operator', '--company', acme.company_id, '--email', uniqueEmail('x'), '--password', PASSWORD])).code).toBe(2);
    expect((await runAdmin(['user:create', '--email', uniqueEmail('x'), '--password', PASSWORD])).code).toBe(2);
  });
});
