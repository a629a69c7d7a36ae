// The Audit log page as a reader meets it, over a fake dashboard API: entries newest first with
// who made them and what changed, Load more by cursor, the action filter in the URL, an
// operator's platform entries or a company's, and the loading, empty and error states.
import { createMemoryHistory } from '@tanstack/react-router';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, OWNER, sessionOf } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

const OPERATOR = { id: 'u9', email: 'ops@platform.test', role: 'operator' as const, company: null };
const COMPANY = '0195f7a2-0000-7000-8000-00000000000c';
const at = (minute: number) => `2026-11-26T10:${String(minute).padStart(2, '0')}:00Z`;
const revoked = { id: '12', at: at(12), actor: { id: 'u1', email: OWNER.email }, action: 'key.revoked', details: { key_id: 'k1', api_key: 'mpk_first' } };
const created = { id: '11', at: at(11), actor: { id: 'u1', email: OWNER.email }, action: 'key.created', details: { key_id: 'k1', api_key: 'mpk_first' } };
const toppedUp = { id: '5', at: at(5), actor: null, action: 'balance.topped_up', details: { amount: 25, balance: 25 } };
const priceSet = { id: '3', at: at(3), actor: null, action: 'price.set', details: { prefix: '+44', route: 'auto', price: '0.0400', previous_price: '0.0350' } };
const page = (next: string | null, ...items: unknown[]) => ({ status: 200, body: { items, next_cursor: next } });

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}

/** The entries' cards (a phone's width in jsdom), as their text. */
async function shownEntries() {
  const list = await screen.findByRole('list', { name: 'Audit log entries, newest first' });
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.textContent);
}

describe('the Audit log page', () => {
  it('lists the entries newest first with who and what, loads more by cursor, and is in every role’s navigation', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OWNER))
      .on('GET /billing/balance', { status: 200, body: { balance: 25, currency: 'EUR', low_balance_threshold: null, low_balance: false } })
      .on('GET /audit', page('11', revoked, created))
      .on('GET /audit?cursor=11', page(null, toppedUp));
    const { user } = start(api, '/dashboard/audit');

    expect(await screen.findByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
    expect(await shownEntries()).toEqual([
      expect.stringMatching(/^API key revoked.*owner@acme\.test.*Key mpk_first revoked$/),
      expect.stringMatching(/^API key created.*owner@acme\.test.*Key mpk_first created$/),
    ]);
    expect(screen.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('Top-up of 25.0000 EUR (balance 25.0000 EUR)')).toBeInTheDocument();
    expect(screen.getByText('Admin tool')).toBeInTheDocument();
    expect(screen.getByText('All 3 entries shown.')).toBeInTheDocument();
    expect(api.sent('GET /audit?cursor=11')).toHaveLength(1);
  });

  it('keeps the action filter in the URL and asks the API for those entries only', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /audit', page(null, revoked, created))
      .on('GET /audit?action=key.revoked', page(null, revoked))
      .on('GET /audit?action=member.removed', page(null));
    const { app, user } = start(api, '/dashboard/audit');

    expect(await shownEntries()).toHaveLength(2);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Action/ }), 'API key revoked');
    expect(app.router.state.location.href).toBe('/audit?action=key.revoked');
    await screen.findByText('One entry shown.');
    expect(await shownEntries()).toEqual([expect.stringMatching(/Key mpk_first revoked$/)]);

    await user.selectOptions(screen.getByRole('combobox', { name: /^Action/ }), 'Member removed');
    expect(await screen.findByText('No entries of this action')).toBeInTheDocument();
    await user.selectOptions(screen.getByRole('combobox', { name: /^Action/ }), 'All actions');
    expect(app.router.state.location.href).toBe('/audit');
  });

  it("shows an operator the platform's own entries, or a company's when the URL names it", async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(OPERATOR as never))
      .on('GET /audit', page(null, { ...priceSet, actor: { id: 'u9', email: OPERATOR.email } }))
      .on(`GET /audit?company_id=${COMPANY}`, page(null, toppedUp));
    start(api, '/dashboard/audit');
    expect(await screen.findByText(/The platform's own changes/)).toBeInTheDocument();
    expect(await shownEntries()).toEqual([expect.stringMatching(/^Price set.*ops@platform\.test.*Price of \+44 auto set to 0\.0400 \(was 0\.0350\)$/)]);
    expect(screen.getByRole('link', { name: 'Audit log' })).toHaveAttribute('aria-current', 'page');
  });

  it("shows an operator a company's entries from its company_id in the URL, with the way back", async () => {
    const company = { id: COMPANY, name: 'Globex', currency: 'USD', balance: 25, status: 'active', suspended_at: null, created_at: at(1) };
    const api = new FakeApi()
      .on('GET /session', sessionOf(OPERATOR as never))
      .on(`GET /audit?company_id=${COMPANY}`, page(null, toppedUp))
      .on(`GET /operator/companies/${COMPANY}`, { status: 200, body: company });
    start(api, `/dashboard/audit?company_id=${COMPANY}`);
    expect(await screen.findByText('Top-up of 25.0000 USD (balance 25.0000 USD)')).toBeInTheDocument();
    expect(screen.getByText("Every change of Globex's keys, members, settings and balance.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '← The company' })).toHaveAttribute('href', `/dashboard/companies/${COMPANY}`);
  });

  it('says when there is nothing yet, and when the log could not be loaded, with a retry', async () => {
    const empty = new FakeApi().on('GET /session', sessionOf(OWNER)).on('GET /audit', page(null));
    const { unmount } = render(
      <ConsoleApp console={createConsole({ fetch: empty.fetch, history: createMemoryHistory({ initialEntries: ['/dashboard/audit'] }) })} />,
    );
    expect(await screen.findByText('No entries yet')).toBeInTheDocument();
    unmount();

    const failing = new FakeApi()
      .on('GET /session', sessionOf(OWNER))
      .on('GET /audit', { status: 400, body: { error: 'cursor must be the next_cursor of an earlier page' } }, page(null, created));
    const { user } = start(failing, '/dashboard/audit');
    expect(await screen.findByText('The audit log could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('cursor must be the next_cursor of an earlier page')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await shownEntries()).toEqual([expect.stringMatching(/Key mpk_first created$/)]);
  });
});
