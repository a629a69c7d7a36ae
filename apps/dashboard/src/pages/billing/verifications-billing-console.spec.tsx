// The Verifications and Billing pages as a reader meets them, over a fake dashboard API: the
// filters kept in the URL and sent to the API, the totals and the table per country, the blocks,
// the balance with its low-balance warning, the ledger a page at a time, the CSV link carrying
// the filter, and the billing settings for owners only.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, OWNER, sessionOf } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

const none = { median_seconds: null, p95_seconds: null };
const stats = {
  from: '2026-10-28T00:00:00.000Z',
  to: '2026-11-27T00:00:00.000Z',
  days: [
    { day: '2026-11-25', sent: 0, verified: 0, conversion_rate: 0, ...none },
    { day: '2026-11-26', sent: 4, verified: 1, conversion_rate: 0.25, median_seconds: 12.5, p95_seconds: 12.5 },
  ],
  rows: [
    { day: '2026-11-26', channel: 'sms', country: 'DE', sent: 3, verified: 1, conversion_rate: 0.3333, median_seconds: 12.5, p95_seconds: 12.5 },
    { day: '2026-11-26', channel: 'sms', country: 'FR', sent: 1, verified: 0, conversion_rate: 0, ...none },
  ],
  totals: { sent: 4, verified: 1, conversion_rate: 0.25, median_seconds: 12.5, p95_seconds: 12.5 },
};
const emptyStats = {
  ...stats,
  days: stats.days.map((day) => ({ ...day, sent: 0, verified: 0, conversion_rate: 0, ...none })),
  rows: [],
  totals: { sent: 0, verified: 0, conversion_rate: 0, ...none },
};
const block = {
  blocked_at: '2026-11-26T10:00:00Z',
  blocked_until: '2026-11-26T10:30:00Z',
  active: true,
  recipient: '+4915112340002',
  appid: 'app_0123',
  verification_id: null,
};
const entry = (id: number, kind: string, amount: number, reference: string | null) => ({
  id,
  created_at: '2026-11-26T10:00:00Z',
  kind,
  amount,
  balance_after: 9.96,
  reference,
  description: kind === 'charge' ? 'OTP' : 'opening balance',
});
const spend = { from: '2026-10-28T00:00:00.000Z', to: '2026-11-27T00:00:00.000Z', days: [{ day: '2026-11-26', charged: 0.04, refunded: 0, spent: 0.04 }] };
const balance = (threshold: number | null, low: boolean) => ({
  status: 200,
  body: { balance: 9.96, currency: 'EUR', low_balance_threshold: threshold, low_balance: low },
});

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}
const path = (app: ReturnType<typeof createConsole>) => app.router.state.location.href;

function billingApi(user: typeof OWNER | typeof DEVELOPER) {
  return new FakeApi()
    .on('GET /session', sessionOf(user))
    .on('GET /billing/balance', balance(null, false))
    .on('GET /billing/spend', { status: 200, body: spend })
    .on('GET /billing/ledger?limit=50', {
      status: 200,
      body: { items: [entry(3, 'charge', -0.01, 'otp:abc'), entry(2, 'charge', -0.01, 'otp:def')], next_cursor: 'CUR1' },
    })
    .on('GET /billing/ledger?limit=50&cursor=CUR1', { status: 200, body: { items: [entry(1, 'topup', 10, null)], next_cursor: null } })
    .on('GET /billing/ledger?kinds=charge&reference=otp%3Aabc&limit=50', {
      status: 200,
      body: { items: [entry(3, 'charge', -0.01, 'otp:abc')], next_cursor: null },
    });
}

describe('the Verifications and Billing pages', () => {
  afterEach(() => act(() => notifications.clean()));

  it('shows the totals, the table per channel and country and the blocks, and keeps the filter in the URL', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /verifications/stats', { status: 200, body: stats })
      .on('GET /verifications/stats?channel=sms&country=FR', { status: 200, body: emptyStats })
      .on('GET /verifications/blocks?limit=20', { status: 200, body: { items: [block], next_cursor: null } });
    const { app, user } = start(api, '/dashboard/verifications');

    const sent = await screen.findByRole('group', { name: 'Sent' });
    expect(sent).toHaveTextContent('4');
    expect(screen.getByRole('group', { name: 'Verified' })).toHaveTextContent('1');
    expect(screen.getByRole('group', { name: 'Conversion' })).toHaveTextContent('25%');
    expect(screen.getByRole('group', { name: 'Median time to verify' })).toHaveTextContent('12.5 s');
    expect(screen.getByRole('link', { name: 'Verifications' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('figure', { name: 'Sent and verified per day' })).toHaveTextContent(/4 sent, 1 verified \(25%\)/);
    // jsdom matches no media query: the phone's layout, a card per row.
    const byCountry = screen.getByRole('list', { name: /per channel and recipient's country/ });
    expect(
      within(byCountry)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['SMS · DESent3Verified1Conversion33.3%', 'SMS · FRSent1Verified0Conversion0%']);
    expect(await screen.findByText('+4915112340002')).toBeInTheDocument();
    expect(screen.getByText('Blocked')).toBeInTheDocument();

    const figure = screen.getByRole('figure', { name: 'Sent and verified per day' });
    await user.click(within(figure).getByRole('button', { name: 'Show the numbers' }));
    expect(within(figure).getByRole('table')).toHaveTextContent('25%');

    const form = screen.getByRole('search', { name: 'Filter verifications' });
    await user.selectOptions(within(form).getByLabelText('Channel'), 'sms');
    await user.type(within(form).getByLabelText('Country', { exact: false }), 'fr');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));
    expect(await screen.findByText('No one-time passwords in this range')).toBeInTheDocument();
    expect(path(app)).toBe('/verifications?channel=sms&country=FR');
    expect(api.sent('GET /verifications/stats?channel=sms&country=FR')).toHaveLength(1);
  });

  it('says when the statistics cannot be loaded, and tries again', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /verifications/stats?from=2026-11-01', { status: 400, body: { error: 'the range must be at most 366 days' } }, { status: 200, body: stats })
      .on('GET /verifications/blocks?limit=20', { status: 200, body: { items: [], next_cursor: null } });
    const { user } = start(api, '/dashboard/verifications?from=2026-11-01');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('the range must be at most 366 days');
    expect(await screen.findByText('No recipient has been blocked')).toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('group', { name: 'Sent' })).toHaveTextContent('4');
  });

  it('shows the balance, the ledger a page at a time, the filter in the URL and in the CSV link', async () => {
    const api = billingApi(DEVELOPER);
    const { app, user } = start(api, '/dashboard/billing');

    expect(await screen.findByRole('group', { name: 'Balance' })).toHaveTextContent('9.96');
    expect(await screen.findByText('otp:abc')).toBeInTheDocument();
    expect(screen.getByRole('figure', { name: 'Spend per day' })).toHaveTextContent(/0\.04 spent from/);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Billing settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/dashboard/api/billing/ledger.csv');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('All 3 entries shown.')).toBeInTheDocument();

    const form = screen.getByRole('search', { name: 'Filter the ledger' });
    await user.click(within(form).getByLabelText('Charge'));
    await user.type(within(form).getByLabelText('Reference', { exact: false }), 'otp:abc');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));
    await waitFor(() => expect(path(app)).toBe('/billing?kinds=charge&reference=otp%3Aabc'));
    expect(await screen.findByText('One entry shown.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/dashboard/api/billing/ledger.csv?kinds=charge&reference=otp%3Aabc');
  });

  it('warns everyone while the balance is below the threshold', async () => {
    const api = billingApi(DEVELOPER).on('GET /billing/balance', balance(25, true));
    start(api, '/dashboard/billing');
    expect(await screen.findByRole('alert')).toHaveTextContent(/below your warning threshold of .*25\.00/);
  });

  it('lets an owner save the threshold after checking it, with the session’s CSRF token', async () => {
    const api = billingApi(OWNER)
      .on('GET /billing/settings', { status: 200, body: { low_balance_threshold: null, currency: 'EUR' } })
      .on('PUT /billing/settings', (request) => ({
        status: 200,
        body: { low_balance_threshold: Number((request.body as { low_balance_threshold: string }).low_balance_threshold), currency: 'EUR' },
      }));
    const { app, user } = start(api, '/dashboard/billing');
    await user.click(await screen.findByRole('link', { name: 'Billing settings' }));
    await waitFor(() => expect(path(app)).toBe('/billing/settings'));

    const field = await screen.findByLabelText('Low-balance warning (EUR)', { exact: false });
    await user.type(field, '-5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Enter zero or more')).toBeInTheDocument();
    expect(api.sent('PUT /billing/settings')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, '25.5');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/Billing warns below .*25\.50/)).toBeInTheDocument();
    const [put] = api.sent('PUT /billing/settings');
    expect(put.body).toEqual({ low_balance_threshold: '25.5' });
    expect(put.headers['x-csrf-token']).toBe('csrf-1');
  });

  it('shows a developer who types the settings address no settings, and asks the API for none', async () => {
    const api = billingApi(DEVELOPER);
    start(api, '/dashboard/billing/settings');
    expect(await screen.findByText('Reserved to owners')).toBeInTheDocument();
    expect(screen.queryByLabelText('Low-balance warning (EUR)', { exact: false })).not.toBeInTheDocument();
    expect(api.sent('GET /billing/settings')).toHaveLength(0);
  });
});
