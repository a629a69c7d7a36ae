// The Messages and Campaigns pages as a reader meets them, over a fake dashboard API: the log's
// filter kept in the URL, Load more with the cursor, a message's history, the test message form,
// a campaign's progress and Cancel after the confirmation.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, sessionOf } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

const ID = '0195f7a2-0000-7000-8000-00000000000a';
const CAMPAIGN = '0195f7a2-0000-7000-8000-0000000000c1';
const message = (n: number, status = 'delivered') => ({
  message_id: `0195f7a2-0000-7000-8000-00000000000${n}`,
  to: `+44791100000${n}`,
  from: 'Acme',
  status,
  parts: 1,
  cost: 0.035,
  refunded: 0,
  reference: null,
  campaign_id: null,
  error_code: null,
  created_at: '2026-11-26T10:00:00Z',
  scheduled_time: null,
  sent_at: '2026-11-26T10:00:01Z',
  delivered_at: null,
  completed_at: null,
});
const summary = { queued: 2, processing: 0, sent: 1, delivered: 6, failed: 1, cancelled: 0 };
const campaign = {
  campaign_id: CAMPAIGN,
  reference: 'spring-sale',
  status: 'processing',
  total_recipients: 10,
  successful: 10,
  failed: 0,
  total_cost: 0.35,
  refunded: 0,
  batches: 2,
  summary,
  created_at: '2026-11-26T10:00:00Z',
  progress: { total: 10, done: 0.7, finished: false },
};

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}
const path = (app: ReturnType<typeof createConsole>) => app.router.state.location.href;

describe('the Messages and Campaigns pages', () => {
  afterEach(() => act(() => notifications.clean()));

  it('lists messages with their status word, applies the filter to the URL and the API, and loads more with the cursor', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /messages?limit=50', { status: 200, body: { items: [message(1), message(2, 'failed')], next_cursor: 'CUR1' } })
      .on('GET /messages?limit=50&cursor=CUR1', { status: 200, body: { items: [message(3)], next_cursor: null } })
      .on('GET /messages?search=%2B44+7911&status=delivered%2Cfailed&from=2026-11-01&limit=50', { status: 200, body: { items: [], next_cursor: null } });
    const { app, user } = start(api, '/dashboard/messages');

    const first = await screen.findByRole('link', { name: /\+447911000001/ });
    expect(first).toHaveAccessibleName('Message to +447911000001, delivered');
    expect(screen.getByText('failed', { selector: '.mantine-Badge-label' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Messages' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('link', { name: /\+447911000003/ })).toBeInTheDocument();
    expect(screen.getByText('All 3 messages shown.')).toBeInTheDocument();

    const form = screen.getByRole('search', { name: 'Filter messages' });
    await user.type(within(form).getByLabelText('Search', { exact: false }), '+44 7911');
    await user.click(within(form).getByLabelText('delivered'));
    await user.click(within(form).getByLabelText('failed'));
    await user.type(within(form).getByLabelText('From'), '2026-11-01');
    await user.click(within(form).getByRole('button', { name: 'Apply filters' }));

    expect(await screen.findByText('No message matches these filters')).toBeInTheDocument();
    expect(path(app)).toBe('/messages?search=%2B44+7911&status=delivered%2Cfailed&from=2026-11-01');
    await user.click(screen.getAllByRole('button', { name: 'Clear filters' })[0]);
    await waitFor(() => expect(path(app)).toBe('/messages'));
  });

  it('opens a link with a filter as it was shared, and shows a message’s history to the second', async () => {
    const detail = {
      ...message(1),
      message_id: ID,
      message: 'Your code is ready',
      route: 'auto',
      encoding: 'GSM-7',
      error_reason: null,
      cancelled_at: null,
      part_details: [
        {
          index: 1,
          status: 'delivered',
          carrier_message_id: 'smsc-42',
          receipt_stat: 'DELIVRD',
          error_code: null,
          submitted_at: '2026-11-26T10:00:01Z',
          completed_at: '2026-11-26T10:00:03Z',
        },
      ],
      history: [
        { at: '2026-11-26T10:00:00Z', event: 'accepted', part: null, details: {} },
        { at: '2026-11-26T10:00:01Z', event: 'submitted', part: 1, details: { carrier_message_id: 'smsc-42' } },
        { at: '2026-11-26T10:00:03Z', event: 'delivered', part: null, details: {} },
      ],
    };
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on(`GET /messages?search=${ID}&limit=50`, { status: 200, body: { items: [{ ...message(1), message_id: ID }], next_cursor: null } })
      .on(`GET /messages/${ID}`, { status: 200, body: detail });
    const { app, user } = start(api, `/dashboard/messages?search=${ID}`);

    expect(await screen.findByLabelText('Search', { exact: false })).toHaveValue(ID);
    await user.click(await screen.findByRole('link', { name: /\+447911000001/ }));
    expect(await screen.findByRole('heading', { name: 'Message to +447911000001' })).toBeInTheDocument();
    expect(path(app)).toBe(`/messages/${ID}`);
    expect(screen.getByText('Your code is ready')).toBeInTheDocument();
    expect(screen.getByText('Handed to the carrier (part 1)')).toBeInTheDocument();
    expect(screen.getByText('carrier id smsc-42')).toBeInTheDocument();
    const times = screen.getAllByText((_, element) => element?.tagName === 'TIME' && element.getAttribute('datetime') === '2026-11-26T10:00:03Z');
    expect(times.length).toBeGreaterThan(0);
    expect(times[0].textContent).toMatch(/\d{1,2}:\d{2}:\d{2}/);
  });

  it('sends a test message after checking the form, and says why a short balance refused it', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER, 'csrf-dev'))
      .on('GET /messages?limit=50', { status: 200, body: { items: [], next_cursor: null } })
      .on(
        'POST /messages/test',
        { status: 402, body: { error: 'Insufficient balance', balance: 0.01, cost: 0.035 } },
        { status: 200, body: { message_id: ID, to: '+447911123456', from: 'SMS', message: 'Hi', parts: 1, cost: 0.035, balance: 9.965, status: 'sent' } },
      );
    const { user } = start(api, '/dashboard/messages');

    expect(await screen.findByText('No messages yet')).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Send a test message' })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Send a test message' });
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByText('Enter the number to send to')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the text to send')).toBeInTheDocument();
    expect(api.sent('POST /messages/test')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('To'), '+44 7911 123456');
    await user.type(within(dialog).getByLabelText('Message'), 'Hi');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('does not cover this message');
    expect(api.sent('POST /messages/test')[0]).toMatchObject({ body: { to: '+447911123456', message: 'Hi' }, headers: { 'x-csrf-token': 'csrf-dev' } });

    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
    expect(await screen.findByText('Test message sent')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send a test message' })).not.toBeInTheDocument());
  });

  it('shows a campaign’s progress from its counters, and cancels it only after the dialog confirms', async () => {
    const batches = [
      {
        batch_id: 'b1',
        position: 1,
        recipients: 8,
        status: 'dispatched',
        scheduled_time: '2026-11-26T10:00:00Z',
        started_at: null,
        dispatched_at: '2026-11-26T10:00:01Z',
      },
      { batch_id: 'b2', position: 2, recipients: 2, status: 'queued', scheduled_time: '2026-11-26T10:05:00Z', started_at: null, dispatched_at: null },
    ];
    const detail = {
      ...campaign,
      batch_details: batches,
      failed_numbers: [],
      sender: 'Acme',
      message: 'Spring sale',
      route: 'auto',
      priority: 'normal',
      batch_size: 8,
      delay_between_batches: 300,
      scheduled_time: null,
      completed_at: null,
      cancelled_at: null,
    };
    const cancelled = {
      ...detail,
      status: 'processing',
      summary: { ...summary, queued: 0, cancelled: 2 },
      batch_details: [batches[0], { ...batches[1], status: 'cancelled' }],
      progress: { total: 10, done: 0.9, finished: false },
    };
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on('GET /campaigns?page=1&limit=20', { status: 200, body: { items: [campaign], page: 1, limit: 20, total: 1 } })
      .on(`GET /campaigns/${CAMPAIGN}`, { status: 200, body: detail }, { status: 200, body: cancelled })
      .on(`POST /campaigns/${CAMPAIGN}/cancel`, {
        status: 200,
        body: { campaign_id: CAMPAIGN, status: 'processing', cancelled_batches: 1, cancelled_recipients: 2, refunded: 0.07, balance: 9.93 },
      });
    const { user } = start(api, '/dashboard/campaigns');

    expect(await screen.findByText('70% done')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Delivered: 6 of 10' })).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Failed: 1 of 10' })).toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: 'spring-sale' }));
    await user.click(await screen.findByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cancel this campaign?' });
    await user.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(api.sent(`POST /campaigns/${CAMPAIGN}/cancel`)).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel this campaign?' })).getByRole('button', { name: 'Cancel campaign' }));
    expect(await screen.findByText('Campaign cancelled')).toBeInTheDocument();
    expect(api.sent(`POST /campaigns/${CAMPAIGN}/cancel`)).toHaveLength(1);
    expect(await screen.findByRole('progressbar', { name: 'Cancelled: 2 of 10' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Cancel' })).not.toBeInTheDocument());
  });
});
