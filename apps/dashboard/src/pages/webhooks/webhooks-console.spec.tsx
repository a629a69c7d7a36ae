// The Webhooks page as a reader meets it, over a fake dashboard API: the secret hidden until an
// owner reveals it, a rotation confirmed with its overlap, the delivery log's filter in the URL,
// a delivery's attempts shown on request, and Resend.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, OWNER, sessionOf } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const NEW_SECRET = 'whsec_bmV3IHNlY3JldCBuZXcgc2VjcmV0IG5ldyBzZWNyZXQ=';
const delivery = (n: number, status: 'pending' | 'delivered' | 'dead', codes: number[]) => ({
  id: `0195f7a2-0000-7000-8000-00000000000${n}`,
  event_type: n === 1 ? 'message.sent' : 'message.delivered',
  url: 'https://hooks.acme.test/sms',
  status,
  attempt_count: codes.length,
  next_attempt_at: status === 'pending' ? '2026-11-26T10:05:00Z' : null,
  last_error: codes.at(-1) === 204 ? null : `HTTP ${codes.at(-1)}`,
  created_at: '2026-11-26T10:00:00Z',
  delivered_at: status === 'delivered' ? '2026-11-26T10:00:01Z' : null,
  dead_at: status === 'dead' ? '2026-11-26T10:00:09Z' : null,
  attempts: codes.map((code, i) => ({
    attempt: i + 1,
    status_code: code,
    error: code === 204 ? null : `HTTP ${code}`,
    duration_ms: 12,
    attempted_at: '2026-11-26T10:00:01Z',
    resend: false,
  })),
});
const page = (...items: unknown[]) => ({ status: 200, body: { items, next_cursor: null } });

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}

describe('the Webhooks page', () => {
  afterEach(() => act(() => notifications.clean()));

  it('keeps the secret hidden until an owner reveals it, and rotates it after a confirmation that explains the overlap', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER))
      .on('GET /webhooks/deliveries', page())
      .on('GET /webhooks/secret', { status: 200, body: { secret: SECRET, rotated_at: null, previous_expires_at: null } })
      .on('POST /webhooks/secret/rotate', {
        status: 200,
        body: { secret: NEW_SECRET, rotated_at: '2026-11-26T10:00:00Z', previous_expires_at: '2026-11-26T11:00:00Z', overlap_seconds: 3600 },
      });
    const { user } = start(api, '/dashboard/webhooks');

    expect(await screen.findByLabelText('Signing secret, hidden')).toBeInTheDocument();
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
    expect(api.sent('GET /webhooks/secret')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Reveal' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue(SECRET);
    expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Rotate secret' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rotate the signing secret?' });
    expect(within(dialog).getByText(/For the next 1 day, every webhook carries two signatures/)).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('1 hour'));
    expect(within(dialog).getByText(/For the next 1 hour,/)).toBeInTheDocument();
    expect(api.sent('POST /webhooks/secret/rotate')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Rotate secret' }));
    expect(await screen.findByDisplayValue(NEW_SECRET)).toBeInTheDocument();
    expect(api.sent('POST /webhooks/secret/rotate').map((request) => [request.body, request.headers['x-csrf-token']])).toEqual([
      [{ overlap_seconds: 3600 }, 'csrf-1'],
    ]);
    expect(screen.getByText(/The secret it replaced also signs until/)).toBeInTheDocument();
  });

  it('shows a developer no way to reveal or rotate the secret', async () => {
    const api = new FakeApi().on('GET /session', sessionOf(DEVELOPER)).on('GET /webhooks/deliveries', page(delivery(1, 'delivered', [204])));
    start(api, '/dashboard/webhooks');
    expect(await screen.findByText('Only your company’s owners can reveal or rotate the signing secret.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reveal' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rotate secret' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Webhooks' })).toHaveAttribute('aria-current', 'page');
  });

  it('filters by status in the URL, shows a delivery’s attempts on request, and resends a dead letter', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /webhooks/deliveries', page(delivery(1, 'delivered', [204]), delivery(2, 'pending', [500])))
      .on('GET /webhooks/deliveries?status=dead', page(delivery(3, 'dead', [500, 503])), page(delivery(3, 'pending', [500, 503])))
      .on(`POST /webhooks/deliveries/${delivery(3, 'dead', []).id}/resend`, {
        status: 202,
        body: { id: delivery(3, 'dead', []).id, attempt: 3, status: 'pending', already_requested: false },
      });
    const { app, user } = start(api, '/dashboard/webhooks');

    const delivered = await screen.findByRole('article', { name: 'message.sent webhook, delivered' });
    expect(within(delivered).getByRole('button', { name: /^Resend/ })).toBeInTheDocument();
    const retrying = screen.getByRole('article', { name: 'message.delivered webhook, retrying' });
    expect(within(retrying).queryByRole('button', { name: /^Resend/ })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Dead letters' }));
    expect(app.router.state.location.href).toBe('/webhooks?status=dead');
    const dead = await screen.findByRole('article', { name: 'message.delivered webhook, dead letter' });
    const show = within(dead).getByRole('button', { name: 'Show attempts' });
    expect(show).toHaveAttribute('aria-expanded', 'false');
    await user.click(show);
    const attempts = within(dead).getByRole('list', { name: 'Attempts of the message.delivered webhook' });
    expect(
      within(attempts)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([expect.stringMatching(/^HTTP 500 · attempt 1 · .* · 12 ms$/), expect.stringMatching(/^HTTP 503 · attempt 2 · .* · 12 ms$/)]);

    await user.click(within(dead).getByRole('button', { name: /^Resend/ }));
    expect(await screen.findByText('message.delivered: attempt 3 is on its way.')).toBeInTheDocument();
    expect(api.sent(`POST /webhooks/deliveries/${delivery(3, 'dead', []).id}/resend`)).toHaveLength(1);
    expect(await screen.findByRole('article', { name: 'message.delivered webhook, retrying' })).toBeInTheDocument();
  });

  it('says when there are no dead letters, and when the log cannot be read', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /webhooks/deliveries?status=dead', page())
      .on('GET /webhooks/deliveries', { status: 400, body: { error: 'cursor is not valid' } }, page(delivery(1, 'delivered', [204])));
    const { user } = start(api, '/dashboard/webhooks?status=dead');
    expect(await screen.findByText('No dead letters')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'All' }));
    expect(await screen.findByText('The deliveries could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('cursor is not valid')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'message.sent webhook, delivered' })).toBeInTheDocument();
  });
});
