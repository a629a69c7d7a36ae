// The console as a reader meets it: the router, the API client and the pages together, over a
// fake dashboard API.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, OWNER, sessionOf } from '../../test/fake-api';
import { ConsoleApp } from './console-app';
import { createConsole } from './create-console';

const KEY = { id: 'k1', api_key: 'mpk_live_one', created_at: '2026-05-01T10:00:00Z', last_used_at: null, revoked_at: null };
const OLD_KEY = { id: 'k0', api_key: 'mpk_old', created_at: '2026-04-01T10:00:00Z', last_used_at: '2026-04-02T10:00:00Z', revoked_at: '2026-04-03T10:00:00Z' };
const NOT_SIGNED_IN = { status: 401, body: { error: 'Not signed in' } };
/** GET /session without a live session. */
const NO_ONE = { status: 200, body: { user: null, csrf_token: null } };

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}

const path = (app: ReturnType<typeof createConsole>) => app.router.state.location.href;

describe('the console', () => {
  // Notifications are kept by a store of the module, not of a rendered tree.
  afterEach(() => act(() => notifications.clean()));

  it('sends a visitor without a session to sign-in, then back to the page and view they asked for', async () => {
    const api = new FakeApi()
      .on('GET /session', NO_ONE)
      .on('POST /session', sessionOf(OWNER))
      .on('GET /keys', { status: 200, body: { items: [KEY, OLD_KEY] } });
    const { app, user } = start(api, '/dashboard/keys?status=all');

    await user.type(await screen.findByLabelText(/^Email/), 'owner@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('mpk_old')).toBeInTheDocument();
    expect(screen.getByText('mpk_live_one')).toBeInTheDocument();
    expect(path(app)).toBe('/keys?status=all');
    expect(api.sent('POST /session')[0].body).toEqual({ email: 'owner@acme.test', password: 'correct horse' });
    expect(screen.getByRole('link', { name: 'API keys' })).toHaveAttribute('aria-current', 'page');
  });

  it('says what is missing before sending anything', async () => {
    const api = new FakeApi().on('GET /session', NO_ONE);
    const { user } = start(api, '/dashboard/sign-in');
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/Enter your email address/)).toBeInTheDocument();
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Email/), 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText(/Enter your email address/)).toBeInTheDocument();
    expect(api.sent('POST /session')).toHaveLength(0);
  });

  it.each([
    [{ status: 401, body: { error: 'Email or password is wrong' } }, 'Email or password is wrong'],
    [
      { status: 429, body: { error: 'Too many failed sign-ins for this account; try again in 15 minutes', retry_after: 900 } },
      'Too many failed sign-ins for this account; try again in 15 minutes',
    ],
    [
      { status: 429, body: { error: 'Too many failed sign-ins from this address.', retry_after: 61 } },
      'Too many failed sign-ins from this address. Try again in 2 minutes.',
    ],
  ])('tells why signing in failed (%j)', async (answer, text) => {
    const api = new FakeApi().on('GET /session', NO_ONE).on('POST /session', answer);
    const { user } = start(api, '/dashboard/sign-in');
    await user.type(await screen.findByLabelText(/^Email/), 'owner@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
  });

  it('shows a new key once, with its secret and a warning, and sends the CSRF token', async () => {
    const created = { id: 'k2', api_key: 'mpk_new', api_secret: 'secret-shown-once', created_at: '2026-05-02T10:00:00Z' };
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER, 'csrf-owner'))
      .on('GET /keys', { status: 200, body: { items: [] } }, { status: 200, body: { items: [{ ...created, last_used_at: null, revoked_at: null }] } })
      .on('POST /keys', { status: 200, body: created });
    const { user } = start(api, '/dashboard/keys');

    expect(await screen.findByText('No active API keys')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    expect(within(dialog).getByLabelText('API secret', { exact: false })).toHaveValue('secret-shown-once');
    expect(within(dialog).getByText(/only time the secret is shown/)).toBeInTheDocument();
    expect(within(dialog).getAllByRole('button', { name: 'Copy' })).toHaveLength(2);
    expect(api.sent('POST /keys')[0].headers['x-csrf-token']).toBe('csrf-owner');

    await user.click(within(dialog).getByRole('button', { name: 'I have stored the secret' }));
    await waitFor(() => expect(screen.queryByText('secret-shown-once')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('secret-shown-once')).not.toBeInTheDocument();
    expect(await screen.findByText('mpk_new')).toBeInTheDocument();
  });

  it('revokes a key only after the dialog confirms it', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER, 'csrf-dev'))
      .on('GET /keys', { status: 200, body: { items: [KEY] } }, { status: 200, body: { items: [{ ...KEY, revoked_at: '2026-05-03T10:00:00Z' }] } })
      .on('DELETE /keys/k1', { status: 200, body: { id: 'k1', revoked_at: '2026-05-03T10:00:00Z' } });
    const { user } = start(api, '/dashboard/keys');

    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke this API key?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.sent('DELETE /keys/k1')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Revoke' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Revoke this API key?' })).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(api.sent('DELETE /keys/k1')).toHaveLength(1));
    expect(api.sent('DELETE /keys/k1')[0].headers['x-csrf-token']).toBe('csrf-dev');
    expect(await screen.findByText('No active API keys')).toBeInTheDocument();
  });

  it('keeps the key filter in the URL', async () => {
    const api = new FakeApi().on('GET /session', sessionOf(OWNER)).on('GET /keys', { status: 200, body: { items: [KEY, OLD_KEY] } });
    const { app, user } = start(api, '/dashboard/keys');
    expect(await screen.findByText('mpk_live_one')).toBeInTheDocument();
    expect(screen.queryByText('mpk_old')).not.toBeInTheDocument();
    await user.click(screen.getByText('Revoked'));
    expect(await screen.findByText('mpk_old')).toBeInTheDocument();
    expect(path(app)).toBe('/keys?status=revoked');
  });

  it('shows an error with a way to try again when the keys cannot be read', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER))
      .on('GET /keys', { status: 400, body: { error: 'Something is off' } }, { status: 200, body: { items: [KEY] } });
    const { user } = start(api, '/dashboard/keys');
    expect(await screen.findByText('The API keys could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('Something is off')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('mpk_live_one')).toBeInTheDocument();
  });

  it('takes a reader whose session ended to sign-in, and back after', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER), NO_ONE)
      .on('GET /keys', NOT_SIGNED_IN, { status: 200, body: { items: [KEY] } })
      .on('POST /session', sessionOf(OWNER, 'csrf-2'));
    const { app, user } = start(api, '/dashboard/keys?status=all');

    expect(await screen.findByText(/Your session has ended/)).toBeInTheDocument();
    expect(path(app)).toMatch(/^\/sign-in\?/);
    await user.type(screen.getByLabelText(/^Email/), 'owner@acme.test');
    await user.type(screen.getByLabelText(/^Password/), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('mpk_live_one')).toBeInTheDocument();
    expect(path(app)).toBe('/keys?status=all');
  });

  it('signs out, with the CSRF token, and forgets the session', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER, 'csrf-owner'))
      .on('GET /keys', { status: 200, body: { items: [KEY] } })
      .on('DELETE /session', { status: 200, body: { signed_out: true } });
    const { app, user } = start(api, '/dashboard/keys');
    await user.click(await screen.findByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
    expect(api.sent('DELETE /session')[0].headers['x-csrf-token']).toBe('csrf-owner');
    expect(app.queryClient.getQueryData(['keys'])).toBeUndefined();
  });

  it('lets an owner invite members, and shows a developer the team without it', async () => {
    const members = { status: 200, body: { items: [{ ...OWNER, created_at: '2026-01-01T00:00:00Z' }], invitations: [] } };
    const owner = new FakeApi()
      .on('GET /session', sessionOf(OWNER))
      .on('GET /members', members)
      .on('POST /invitations', {
        status: 200,
        body: { id: 'i1', email: 'new@acme.test', role: 'developer', expires_at: '2026-06-01T00:00:00Z', link: '/dashboard/invite/tok123' },
      });
    const { user } = start(owner, '/dashboard/team');
    await user.type(await screen.findByLabelText(/^Email/), 'new@acme.test');
    await user.click(screen.getByRole('button', { name: 'Invite' }));
    expect(await screen.findByLabelText('Invitation link', { exact: false })).toHaveValue('http://localhost/dashboard/invite/tok123');
    expect(owner.sent('POST /invitations')[0].body).toEqual({ email: 'new@acme.test', role: 'developer' });
  });

  it('lets an owner cancel a pending invitation', async () => {
    const pending = { id: 'i1', email: 'late@acme.test', role: 'developer', expires_at: '2026-06-01T00:00:00Z' };
    const owner = new FakeApi()
      .on('GET /session', sessionOf(OWNER, 'csrf-owner'))
      .on(
        'GET /members',
        { status: 200, body: { items: [{ ...OWNER, created_at: '2026-01-01T00:00:00Z' }], invitations: [pending] } },
        { status: 200, body: { items: [{ ...OWNER, created_at: '2026-01-01T00:00:00Z' }], invitations: [] } },
      )
      .on('DELETE /invitations/i1', { status: 200, body: { id: 'i1', cancelled: true } });
    const { user } = start(owner, '/dashboard/team');
    await user.click(await screen.findByRole('button', { name: 'Cancel invitation', description: /late@acme\.test/ }));
    expect(await screen.findByText('No pending invitations')).toBeInTheDocument();
    expect(owner.sent('DELETE /invitations/i1')[0].headers['x-csrf-token']).toBe('csrf-owner');
  });

  it('shows a developer the team without the owner-only controls', async () => {
    const developer = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /members', { status: 200, body: { items: [{ ...OWNER, created_at: '2026-01-01T00:00:00Z' }], invitations: [] } });
    start(developer, '/dashboard/team');
    expect(await screen.findByText('owner@acme.test')).toBeInTheDocument();
    expect(screen.getByText(/Only owners invite or remove members/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Cancel invitation' })).not.toBeInTheDocument();
  });

  it('accepts an invitation with a new password and signs the member in', async () => {
    const api = new FakeApi()
      .on('GET /session', NO_ONE)
      .on('POST /invitations/tok123/accept', { status: 410, body: { error: 'Invitation expired' } }, sessionOf(DEVELOPER))
      .on('GET /keys', { status: 200, body: { items: [] } });
    const { app, user } = start(api, '/dashboard/invite/tok123');

    const password = await screen.findByLabelText(/^Password/);
    await user.type(password, 'short');
    await user.type(screen.getByLabelText(/^Repeat the password/), 'different!!');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByText('Use at least 10 characters')).toBeInTheDocument();
    expect(screen.getByText('The two passwords differ')).toBeInTheDocument();
    expect(api.sent('POST /invitations/tok123/accept')).toHaveLength(0);

    await user.clear(password);
    await user.type(password, 'a long passphrase');
    await user.clear(screen.getByLabelText(/^Repeat the password/));
    await user.type(screen.getByLabelText(/^Repeat the password/), 'a long passphrase');
    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/unknown, already used or expired/);

    await user.click(screen.getByRole('button', { name: 'Set password and sign in' }));
    expect(await screen.findByText('No active API keys')).toBeInTheDocument();
    expect(path(app)).toBe('/keys');
    expect(api.sent('POST /invitations/tok123/accept')[1].body).toEqual({ password: 'a long passphrase' });
  });
});
