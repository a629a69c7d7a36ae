// The Applications pages as a reader meets them, over a fake dashboard API: the list, creating an
// application after the form's checks, changing its settings, templates by language with the tab
// in the URL, and the template editor whose live preview names the character that forces UCS-2
// and shows the parts and cost the server priced.
import { notifications } from '@mantine/notifications';
import { createMemoryHistory } from '@tanstack/react-router';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEVELOPER, FakeApi, sessionOf, type RecordedRequest } from '../../../test/fake-api';
import { ConsoleApp } from '../../app/console-app';
import { createConsole } from '../../app/create-console';

// Typing a text key by key is slow on a busy machine.
jest.setTimeout(20_000);

const APPID = 'app_0123456789abcdef0123';
const at = '2026-11-26T10:00:00Z';
const shop = {
  appid: APPID,
  name: 'Shop',
  otp_validity_minutes: 10,
  allowed_countries: null,
  otp_prefix_limit_per_hour: 100,
  timezone: 'UTC',
  created_at: at,
};
const templates = {
  languages: ['en', 'pl'],
  items: [
    {
      template_id: 7,
      texts: [
        { lang: 'en', text: 'Your {{app_name}} code is {{otp}}', original: true, created_at: at },
        { lang: 'pl', text: 'Kod {{app_name}}: {{otp}}', original: false, created_at: at },
      ],
    },
  ],
};

/** The fake server's preview: renders {{otp}} and {{app_name}}, finds the first ż, and counts parts as UCS-2 (70, then 67) or GSM-7. */
function previewOf(request: RecordedRequest) {
  const { text } = request.body as { text: string };
  const rendered = text.replaceAll('{{otp}}', '123456').replaceAll('{{app_name}}', 'Shop');
  const characters = [...rendered];
  const index = characters.indexOf('ż');
  const ucs2 = index >= 0;
  const parts = ucs2 ? (characters.length <= 70 ? 1 : Math.ceil(characters.length / 67)) : characters.length <= 160 ? 1 : Math.ceil(characters.length / 153);
  return {
    status: 200,
    body: {
      rendered_text: rendered,
      characters: characters.length,
      encoding: ucs2 ? 'UCS-2' : 'GSM-7',
      parts,
      ucs2_character: ucs2 ? { character: 'ż', position: index + 1 } : null,
      shows_code: text.includes('{{otp}}'),
      to: '+447400123456',
      route: 'auto',
      price_per_part: '0.0100',
      cost: `0.0${String(parts).padStart(3, '0')}`,
      currency: 'EUR',
    },
  };
}

function start(api: FakeApi, url: string) {
  const app = createConsole({ fetch: api.fetch, history: createMemoryHistory({ initialEntries: [url] }) });
  render(<ConsoleApp console={app} />);
  return { app, user: userEvent.setup() };
}
const path = (app: ReturnType<typeof createConsole>) => app.router.state.location.href;

describe('the Applications pages', () => {
  afterEach(() => act(() => notifications.clean()));

  it('lists applications, refuses a bad form in words, and creates one with the body the API takes', async () => {
    const created = { ...shop, appid: 'app_ffffffffffffffffffff', name: 'Checkout', otp_validity_minutes: 5, allowed_countries: ['GB', 'FR'] };
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER, 'csrf-dev'))
      .on('GET /applications', { status: 200, body: { items: [shop] } })
      .on('POST /applications', { status: 400, body: { error: 'the company already has an application named "Checkout"' } }, { status: 200, body: created })
      .on(`GET /applications/${created.appid}`, { status: 200, body: created })
      .on(`GET /applications/${created.appid}/templates`, { status: 200, body: { items: [], languages: [] } });
    const { app, user } = start(api, '/dashboard/applications');

    expect(await screen.findByRole('link', { name: 'Shop' })).toHaveAttribute('href', `/dashboard/applications/${APPID}`);
    expect(screen.getByText(APPID)).toBeInTheDocument();
    expect(screen.getByText(/every country/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Applications' })).toHaveAttribute('aria-current', 'page');

    await user.click(screen.getByRole('button', { name: 'Create application' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create application' });
    const expiry = within(dialog).getByLabelText('OTP expiry (minutes)');
    await user.clear(expiry);
    await user.type(expiry, '90');
    await user.type(within(dialog).getByLabelText('Allowed countries'), 'gb, FRA');
    await user.click(within(dialog).getByRole('button', { name: 'Create application' }));
    expect(await within(dialog).findByText('Name is required')).toBeInTheDocument();
    expect(within(dialog).getByText(/1 to 60/)).toBeInTheDocument();
    expect(within(dialog).getByText('“FRA” is not a two-letter country code such as GB or FR')).toBeInTheDocument();
    expect(api.sent('POST /applications')).toHaveLength(0);

    await user.type(within(dialog).getByLabelText('Name'), 'Checkout');
    await user.clear(expiry);
    await user.type(expiry, '5');
    const countries = within(dialog).getByLabelText('Allowed countries');
    await user.clear(countries);
    await user.type(countries, 'gb, fr');
    await user.click(within(dialog).getByRole('button', { name: 'Create application' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('already has an application named "Checkout"');
    await user.click(within(dialog).getByRole('button', { name: 'Create application' }));

    expect(await screen.findByRole('heading', { name: 'Checkout' })).toBeInTheDocument();
    expect(path(app)).toBe(`/applications/${created.appid}`);
    const [, sent] = api.sent('POST /applications');
    expect(sent.body).toEqual({ name: 'Checkout', otp_validity_minutes: 5, allowed_countries: ['GB', 'FR'], otp_prefix_limit_per_hour: 100 });
    expect(sent.headers['x-csrf-token']).toBe('csrf-dev');
    expect(await screen.findByText('No templates yet')).toBeInTheDocument();
  });

  it('changes an application’s settings with PATCH', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on(`GET /applications/${APPID}`, { status: 200, body: shop })
      .on(`PATCH /applications/${APPID}`, (request) => ({ status: 200, body: { ...shop, ...(request.body as object), allowed_countries: null } }))
      .on(`GET /applications/${APPID}/templates`, { status: 200, body: templates })
      .on('GET /applications', { status: 200, body: { items: [shop] } });
    const { user } = start(api, `/dashboard/applications/${APPID}`);
    const limit = await screen.findByLabelText('Prefix limit (per hour)');
    await user.clear(limit);
    await user.type(limit, '25');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(api.sent(`PATCH /applications/${APPID}`)).toHaveLength(1));
    expect(api.sent(`PATCH /applications/${APPID}`)[0].body).toEqual({
      name: 'Shop',
      otp_validity_minutes: 10,
      allowed_countries: [],
      otp_prefix_limit_per_hour: 25,
    });
    expect(await screen.findByText('Application saved')).toBeInTheDocument();
  });

  it('shows templates by language with the tab in the URL, and previews a text as the server prices it: the UCS-2 character named, 2 parts when long', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on(`GET /applications/${APPID}`, { status: 200, body: shop })
      .on(`GET /applications/${APPID}/templates`, { status: 200, body: templates })
      .on(`POST /applications/${APPID}/templates/preview`, previewOf)
      .on(`PUT /applications/${APPID}/templates/7/texts/pl`, { status: 200, body: { template_id: 7, lang: 'pl', created: false } });
    const { app, user } = start(api, `/dashboard/applications/${APPID}`);

    expect(await screen.findByRole('tab', { name: 'en', selected: true })).toBeInTheDocument();
    expect(screen.getByText('Your {{app_name}} code is {{otp}}')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'pl' }));
    await waitFor(() => expect(path(app)).toBe(`/applications/${APPID}?lang=pl`));
    expect(await screen.findByText('Kod {{app_name}}: {{otp}}')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit pl text' }));
    await waitFor(() => expect(path(app)).toBe(`/applications/${APPID}?lang=pl&template=7`));
    const editor = await screen.findByRole('region', { name: 'Template 7 in pl' });
    const text = within(editor).getByLabelText('Template text');
    expect(text).toHaveValue('Kod {{app_name}}: {{otp}}');
    expect(await within(editor).findByText('Kod Shop: 123456')).toBeInTheDocument();
    expect(within(editor).getByText('GSM-7')).toBeInTheDocument();
    expect(within(editor).queryByTestId('ucs2-reason')).toBeNull();

    await user.clear(text);
    await user.type(text, 'Kod ważny: {{{{otp}}');
    expect(await within(editor).findByText('“ż” at position 7 forces UCS-2')).toBeInTheDocument();
    expect(within(editor).getByText('UCS-2')).toBeInTheDocument();
    expect(within(editor).getByText('1 part')).toBeInTheDocument();

    await user.paste(' Nie udostępniaj go nikomu, nawet osobom podającym się za pracowników.');
    expect(await within(editor).findByText('2 parts')).toBeInTheDocument();
    expect(within(editor).getByText('0.0002 EUR (2 parts × 0.0100 EUR)')).toBeInTheDocument();
    // Debounced: the server was not asked once per keystroke.
    expect(api.sent(`POST /applications/${APPID}/templates/preview`).length).toBeLessThan(10);
    expect(api.sent(`POST /applications/${APPID}/templates/preview`).at(-1)?.body).toEqual({
      text: 'Kod ważny: {{otp}} Nie udostępniaj go nikomu, nawet osobom podającym się za pracowników.',
      lang: 'pl',
      to: '+447400123456',
    });

    await user.click(within(editor).getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(path(app)).toBe(`/applications/${APPID}?lang=pl`));
    expect(api.sent(`PUT /applications/${APPID}/templates/7/texts/pl`)[0].body).toEqual({
      text: 'Kod ważny: {{otp}} Nie udostępniaj go nikomu, nawet osobom podającym się za pracowników.',
    });
  });

  it('says when a text does not show the code, and when the preview is refused', async () => {
    const api = new FakeApi()
      .on('GET /session', sessionOf(DEVELOPER))
      .on(`GET /applications/${APPID}`, { status: 200, body: shop })
      .on(`GET /applications/${APPID}/templates`, { status: 200, body: { items: [], languages: [] } })
      .on(`POST /applications/${APPID}/templates/preview`, (request) =>
        (request.body as { to: string }).to === '+1' ? { status: 400, body: { error: 'Invalid phone number format' } } : previewOf(request),
      );
    const { user } = start(api, `/dashboard/applications/${APPID}?template=new`);
    const editor = await screen.findByRole('region', { name: 'New template' });
    expect(within(editor).getByText(/Type a text and a sample number/)).toBeInTheDocument();
    await user.type(within(editor).getByLabelText('Template text'), 'Hello');
    expect(await within(editor).findByText('No code in this text')).toBeInTheDocument();
    const sample = within(editor).getByLabelText('Sample number');
    await user.clear(sample);
    await user.type(sample, '+1');
    expect(await within(editor).findByText('Invalid phone number format')).toBeInTheDocument();
  });
});
