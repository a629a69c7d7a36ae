// The operators' pages as a reader meets them, over a fake dashboard API: companies listed with
// the status filter in the URL, one created (its secret shown once), suspended after the
// confirmation; a company topped up through `Top up` and `Amount` (checked before sending, the
// API's refusal shown); a price edited, the table imported from a CSV file with the API's answer
// or refusal shown; the overview's queues and binds; the operator's navigation.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { FakeApi, OWNER, sessionOf } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

const OPERATOR = { id: 'u9', email: 'ops@platform.test', role: 'operator' as const, company: null };
const acme = {
  id: '0195f7a2-0000-7000-8000-00000000000a',
  name: 'Acme',
  currency: 'EUR',
  balance: 10,
  status: 'active',
  suspended_at: null,
  created_at: '2026-11-26T10:00:00Z',
};
const globex = { ...acme, id: '0195f7a2-0000-7000-8000-00000000000b', name: 'Globex', status: 'suspended', suspended_at: '2026-11-26T11:00:00Z' };
const prices = [
  { prefix: '+', route: 'auto', price: 0.01 },
  { prefix: '+44', route: 'premium', price: 0.035 },
];

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}
const path = (app: ReturnType<typeof createConsole>) => app.router.state.location.href;
const operatorApi = () => new FakeApi().on('GET /session', sessionOf(OPERATOR as never));

describe("the operators' pages", () => {
  afterEach(() => act(() => notifications.clean()));

  it('lists companies with balance and status, the status filter in the URL, and names Companies and Prices in the navigation', async () => {
    const api = operatorApi().on('GET /operator/companies', { status: 200, body: { items: [acme, globex] } });
    const { app, user } = start(api, '/dashboard/companies');
    const list = await screen.findByRole('list', { name: '2 of 2 companies' });
    expect(within(list).getByRole('link', { name: 'Acme' })).toHaveAttribute('href', `/dashboard/companies/${acme.id}`);
    expect(within(list).getByText('Suspended')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Companies' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Prices' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Suspended' }));
    await waitFor(() => expect(path(app)).toBe('/companies?status=suspended'));
    expect(screen.queryByRole('link', { name: 'Acme' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Globex' })).toBeInTheDocument();
  });

  it('creates a company and shows its API secret once', async () => {
    const api = operatorApi()
      .on('GET /operator/companies', { status: 200, body: { items: [] } })
      .on('POST /operator/companies', { status: 200, body: { company: acme, appid: 'app_1', api_key: 'mpk_new', api_secret: 'secret-once' } });
    const { user } = start(api, '/dashboard/companies');
    expect(await screen.findByText('No companies yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create company' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create company' });
    await user.click(within(dialog).getByRole('button', { name: 'Create company' }));
    expect(within(dialog).getByText('Name is required')).toBeInTheDocument();
    expect(api.sent('POST /operator/companies')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Name'), 'Acme');
    await user.clear(within(dialog).getByLabelText('Opening balance'));
    await user.type(within(dialog).getByLabelText('Opening balance'), '12.50');
    await user.click(within(dialog).getByRole('button', { name: 'Create company' }));
    expect(await screen.findByDisplayValue('secret-once')).toBeInTheDocument();
    expect(api.sent('POST /operator/companies')[0].body).toEqual({ name: 'Acme', currency: 'EUR', balance: '12.50' });
  });

  it('suspends a company only after the confirmation', async () => {
    const api = operatorApi()
      .on('GET /operator/companies', { status: 200, body: { items: [acme] } })
      .on(`POST /operator/companies/${acme.id}/suspend`, { status: 200, body: { ...acme, status: 'suspended', suspended_at: '2026-11-26T12:00:00Z' } });
    const { user } = start(api, '/dashboard/companies');
    await user.click(await screen.findByRole('button', { name: 'Suspend Acme' }));
    const dialog = await screen.findByRole('dialog', { name: 'Suspend Acme?' });
    expect(api.sent(`POST /operator/companies/${acme.id}/suspend`)).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await waitFor(() => expect(api.sent(`POST /operator/companies/${acme.id}/suspend`)).toHaveLength(1));
    expect(await screen.findByText('Company suspended')).toBeInTheDocument();
  });

  it('tops up from the company page: the Amount checked before sending, the new balance shown, the API refusal said', async () => {
    const api = operatorApi()
      .on(`GET /operator/companies/${acme.id}`, { status: 200, body: acme })
      .on(
        `POST /operator/companies/${acme.id}/top-ups`,
        { status: 409, body: { error: 'a top-up with the reference "wire-1" was already recorded' } },
        { status: 200, body: { company_id: acme.id, amount: 25.5, balance: 35.5, reference: null } },
      );
    const { user } = start(api, `/dashboard/companies/${acme.id}`);
    await user.click(await screen.findByRole('button', { name: 'Top up' }));
    const dialog = await screen.findByRole('dialog', { name: 'Top up Acme' });
    const amount = within(dialog).getByLabelText('Amount');
    await user.type(amount, '1.00001');
    await user.click(within(dialog).getByRole('button', { name: 'Credit balance' }));
    expect(within(dialog).getByText(/Amount must be a number with at most 4 decimals/)).toBeInTheDocument();
    expect(api.sent(`POST /operator/companies/${acme.id}/top-ups`)).toHaveLength(0);
    await user.clear(amount);
    await user.type(amount, '25.50');
    await user.type(within(dialog).getByLabelText('Reference'), 'wire-1');
    await user.click(within(dialog).getByRole('button', { name: 'Credit balance' }));
    expect(await within(dialog).findByText('a top-up with the reference "wire-1" was already recorded')).toBeInTheDocument();
    expect(api.sent(`POST /operator/companies/${acme.id}/top-ups`)[0].body).toEqual({ amount: '25.50', reference: 'wire-1' });
    await user.clear(within(dialog).getByLabelText('Reference'));
    await user.click(within(dialog).getByRole('button', { name: 'Credit balance' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Top up Acme' })).not.toBeInTheDocument());
    expect(api.sent(`POST /operator/companies/${acme.id}/top-ups`)[1].body).toEqual({ amount: '25.50' });
    expect(screen.getAllByText(/35\.50/).length).toBeGreaterThan(0);
  });

  it('edits a price and imports a CSV file, showing what was imported or the line refused', async () => {
    const api = operatorApi()
      .on('GET /operator/prices', { status: 200, body: { items: prices } })
      .on('PUT /operator/prices', { status: 200, body: { prefix: '+44', route: 'premium', price: 0.04 } })
      .on(
        'POST /operator/prices/import',
        { status: 400, body: { error: 'line 3: route must be one of auto, standard, premium, whatsapp' } },
        { status: 200, body: { imported: 2 } },
      );
    const { app, user } = start(api, '/dashboard/prices');
    expect(await screen.findByRole('link', { name: 'Export CSV' })).toHaveAttribute('href', '/dashboard/api/operator/prices.csv');
    await user.selectOptions(await screen.findByLabelText('Route'), 'premium');
    await waitFor(() => expect(path(app)).toBe('/prices?route=premium'));
    expect(screen.queryByText('+ (every number) · auto')).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Route'), 'all');
    await waitFor(() => expect(path(app)).toBe('/prices'));
    await user.click(await screen.findByRole('button', { name: 'Edit price of +44 premium' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit price of +44 premium' });
    const price = within(dialog).getByLabelText('Price');
    expect(price).toHaveValue('0.0350');
    await user.clear(price);
    await user.type(price, '0.04');
    await user.click(within(dialog).getByRole('button', { name: 'Save price' }));
    await waitFor(() => expect(api.sent('PUT /operator/prices')[0]?.body).toEqual({ prefix: '+44', route: 'premium', price: '0.04' }));

    const file = new File(['prefix,route,price\n+44,auto,0.01\n+1,fast,1\n'], 'prices.csv', { type: 'text/csv' });
    await user.upload(screen.getByLabelText('Price file (CSV)'), file);
    await user.click(screen.getByRole('button', { name: 'Import prices' }));
    expect(await screen.findByText('line 3: route must be one of auto, standard, premium, whatsapp')).toBeInTheDocument();
    expect(api.sent('POST /operator/prices/import')[0].body).toEqual({ csv: 'prefix,route,price\n+44,auto,0.01\n+1,fast,1\n' });
    await user.click(screen.getByRole('button', { name: 'Import prices' }));
    expect(await screen.findByText('2 prices imported.')).toBeInTheDocument();
  });

  it("shows the overview's queue depths and SMSC binds, and keeps company users away from the operators' pages", async () => {
    const api = operatorApi().on('GET /operator/overview', {
      status: 200,
      body: {
        queues: [{ queue: 'sms.dispatch', waiting: 3, active: 1, delayed: 0, failed: 2 }],
        binds: [{ route: 'default', bind: 1, smsc: '127.0.0.1:2775', dispatcher: 'gw:42', state: 'bound', since: '2026-11-26T10:00:00Z' }],
        read_at: '2026-11-26T10:01:00Z',
      },
    });
    start(api, '/dashboard/');
    expect(await screen.findByRole('heading', { name: 'Queue depths' })).toBeInTheDocument();
    const queues = screen.getByRole('list', { name: 'Jobs per queue and state' });
    const binds = screen.getByRole('list', { name: 'Binds of every running sms-dispatcher' });
    expect(within(queues).getByText('sms.dispatch')).toBeInTheDocument();
    expect(within(queues).getByText('Failed').nextElementSibling).toHaveTextContent('2');
    expect(within(binds).getByText('bound')).toBeInTheDocument();
    expect(within(binds).getByText('127.0.0.1:2775')).toBeInTheDocument();
  });

  it('shows each carrier with its binds and health over the last five minutes, a degraded one marked', async () => {
    const health = {
      window_seconds: 300,
      dispatchers: 2,
      submits: 3000,
      submits_per_second: 10,
      throttled_rate: 0.02,
      error_rate: 0.001,
      receipts: 2900,
      delivered_share: 0.985,
      mean_receipt_latency_ms: 2400,
      degraded: false,
      degraded_by: 0,
      reasons: ['delivering'],
    };
    const carrier = { host: 'smpp.example', port: 2775, enabled: true, binds: 2 };
    const api = operatorApi()
      .on('GET /operator/overview', { status: 200, body: { queues: [], binds: [], read_at: '2026-11-26T10:01:00Z' } })
      .on('GET /operator/carriers', {
        status: 200,
        body: {
          items: [
            { ...carrier, name: 'acme-uk', bound: 4, health },
            { ...carrier, name: 'cheap', bound: 2, health: { ...health, delivered_share: 0.3, degraded: true, degraded_by: 1 } },
            { ...carrier, name: 'spare', bound: 0, health: null },
          ],
          read_at: '2026-11-26T10:01:00Z',
        },
      });
    start(api, '/dashboard/');
    const list = await screen.findByRole('list', { name: 'Carriers and their health' });
    const row = (name: string) => within(list).getByText(name).closest('li') as HTMLElement;
    expect(within(row('acme-uk')).getByText('Bound').nextElementSibling).toHaveTextContent('4');
    expect(within(row('acme-uk')).getByText('Binds each').nextElementSibling).toHaveTextContent('2');
    expect(within(row('acme-uk')).getByText('98.5 %')).toBeInTheDocument();
    expect(within(row('acme-uk')).getByText('2.4 s')).toBeInTheDocument();
    expect(within(row('acme-uk')).getByText('delivering')).toBeInTheDocument();
    expect(within(row('cheap')).getByText('degraded (1 of 2)')).toBeInTheDocument();
    expect(within(row('spare')).getByText('not bound')).toBeInTheDocument();
  });

  it("tells a suspended company's users that they can read but change nothing", async () => {
    const suspendedOwner = { ...OWNER, company: { ...OWNER.company, suspended: true } };
    const api = new FakeApi().on('GET /session', sessionOf(suspendedOwner as never)).on('GET /keys', { status: 200, body: { items: [] } });
    start(api, '/dashboard/keys');
    expect(await screen.findByText('Your company is suspended')).toBeInTheDocument();
  });

  it('shows no suspension to an active company', async () => {
    const api = new FakeApi().on('GET /session', sessionOf(OWNER)).on('GET /keys', { status: 200, body: { items: [] } });
    start(api, '/dashboard/keys');
    await screen.findByRole('heading', { name: 'API keys' });
    expect(screen.queryByText('Your company is suspended')).not.toBeInTheDocument();
  });

  it('sends an owner who opens an operator page to their own first page', async () => {
    const api = new FakeApi().on('GET /session', sessionOf(OWNER)).on('GET /keys', { status: 200, body: { items: [] } });
    const { app } = start(api, '/dashboard/companies');
    await waitFor(() => expect(path(app)).toBe('/keys'));
    expect(api.sent('GET /operator/companies')).toHaveLength(0);
  });
});
