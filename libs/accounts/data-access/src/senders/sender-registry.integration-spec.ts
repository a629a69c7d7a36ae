import { openTestDataSource } from '@mp/testing';
import type { DataSource } from 'typeorm';
import {
  ACCOUNTS_ENTITIES,
  accountsRepositories,
  AccountsService,
  AuditLogRepository,
  InvalidArgumentError,
  MessagingSettings,
  NotFoundError,
  parseNumber,
  parseSenderId,
  senderKey,
  SenderRegistry,
} from '../index';

const PEPPER = 'integration-pepper-'.padEnd(40, 'x');
const unique = () => `${Date.now() % 1_000_000}${Math.floor(Math.random() * 1000)}`.padStart(9, '0');

describe('company senders and the status callback (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let registry: SenderRegistry;
  let settings: MessagingSettings;

  const newCompany = async () => (await accounts.createCompany({ name: 'Senders', balance: '0' })).company_id;
  const auditOf = async (companyId: string, action: string) =>
    (await db.query(`SELECT details FROM audit_entries WHERE company_id = $1 AND action = $2 ORDER BY id`, [companyId, action])) as {
      details: Record<string, unknown>;
    }[];

  beforeAll(async () => {
    db = await openTestDataSource('sender-registry-test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    registry = new SenderRegistry(db, new AuditLogRepository(db));
    settings = new MessagingSettings(db, new AuditLogRepository(db));
  });
  afterAll(() => db.destroy());

  it('assigns a number to one company, audited, and answers its owner however the number is written', async () => {
    const company = await newCompany();
    const number = `+44740${unique()}`;
    const assigned = await registry.assign(company, parseNumber(number), 'long_code');
    expect(assigned).toMatchObject({ value: number, kind: 'long_code', companyId: company });
    expect(await registry.ownerOf(number)).toBe(company);
    expect(await registry.ownerOf(number.slice(1))).toBe(company);
    expect((await registry.ownership()).get(senderKey(number))).toBe(company);
    expect(await auditOf(company, 'sender.assigned')).toEqual([{ details: { value: number, kind: 'long_code' } }]);
  });

  it('refuses a value assigned to another company, without case for sender ids, and keeps a repeat to the same company a no-op', async () => {
    const [first, second] = [await newCompany(), await newCompany()];
    const sender = `Ac${unique().slice(0, 8)}`;
    await registry.assign(first, parseSenderId(sender), 'alphanumeric');
    await expect(registry.assign(second, sender.toUpperCase(), 'alphanumeric')).rejects.toThrow(InvalidArgumentError);
    await expect(registry.assign(first, sender, 'alphanumeric')).resolves.toMatchObject({ companyId: first });
    expect(await registry.ownerOf(sender.toLowerCase())).toBe(first);
    expect(await auditOf(first, 'sender.assigned')).toHaveLength(1);
    expect(await registry.list(second)).toEqual([]);
  });

  it('unassigns only from the company that has the value, audited, leaving it free', async () => {
    const [owner, other] = [await newCompany(), await newCompany()];
    const number = `+44741${unique()}`;
    await registry.assign(owner, number, 'long_code');
    expect(await registry.unassign(other, number)).toBe(false);
    expect(await registry.unassign(owner, number)).toBe(true);
    expect(await registry.ownerOf(number)).toBeNull();
    expect(await auditOf(owner, 'sender.unassigned')).toEqual([{ details: { value: number, kind: 'long_code' } }]);
    const shortCode = parseNumber(`+${unique().slice(1)}`.slice(0, 9), 'short_code');
    await registry.assign(owner, shortCode, 'short_code');
    expect(await registry.ownerOf(`+${shortCode}`)).toBe(owner);
    expect(await registry.unassign(owner, `+${shortCode}`)).toBe(true);
    await expect(registry.assign(other, number, 'long_code')).resolves.toMatchObject({ companyId: other });
  });

  it('answers the owner of a short code and of a long code as carriers write them (with or without +, after 00)', async () => {
    const [shortOwner, longOwner] = [await newCompany(), await newCompany()];
    const shortCode = parseNumber(`9${unique().slice(-7)}`, 'short_code');
    const number = `+44745${unique()}`;
    await registry.assign(shortOwner, shortCode, 'short_code');
    await registry.assign(longOwner, parseNumber(number), 'long_code');
    for (const written of [shortCode, `+${shortCode}`, ` ${shortCode}`]) expect(await registry.ownerOf(written)).toBe(shortOwner);
    for (const written of [number, number.slice(1), `00${number.slice(1)}`]) expect(await registry.ownerOf(written)).toBe(longOwner);
    expect(await registry.ownerOf(`${shortCode}1`)).toBeNull();
  });

  it('refuses a short code whose digits are another company’s long number, and the reverse; the same company may hold both', async () => {
    const [first, second] = [await newCompany(), await newCompany()];
    const digits = `8${unique().slice(-7)}`;
    await registry.assign(first, parseNumber(`+${digits}`), 'long_code');
    await expect(registry.assign(second, parseNumber(digits, 'short_code'), 'short_code')).rejects.toThrow(/has the digits of/);
    await expect(registry.assign(first, parseNumber(digits, 'short_code'), 'short_code')).resolves.toMatchObject({ companyId: first });
    expect(await registry.unassign(first, `+${digits}`)).toBe(true); // both forms: one sender
    expect(await registry.ownerOf(digits)).toBeNull();
    await registry.assign(second, parseNumber(digits, 'short_code'), 'short_code');
    await expect(registry.assign(first, parseNumber(`+${digits}`), 'long_code')).rejects.toThrow(InvalidArgumentError);
    expect(await registry.ownerOf(digits)).toBe(second);
  });

  it('prefers the form the carrier wrote when both are stored (rows from before the check)', async () => {
    const [shortOwner, longOwner] = [await newCompany(), await newCompany()];
    const digits = `7${unique().slice(-7)}`;
    await db.query(`INSERT INTO company_senders (value, kind, company_id) VALUES ($1, 'short_code', $2), ($3, 'long_code', $4)`, [
      digits,
      shortOwner,
      `+${digits}`,
      longOwner,
    ]);
    expect(await registry.ownerOf(digits)).toBe(shortOwner);
    expect(await registry.ownerOf(`+${digits}`)).toBe(longOwner);
  });

  it('lists a company’s values and refuses an unknown company or a malformed value', async () => {
    const company = await newCompany();
    const number = `+44742${unique()}`;
    await registry.assign(company, number, 'long_code');
    expect((await registry.list(company)).map((sender) => sender.value)).toContain(number);
    await expect(registry.assign('00000000-0000-4000-8000-000000000000', `+44743${unique()}`, 'long_code')).rejects.toThrow(NotFoundError);
    expect(() => parseNumber('447400900123')).toThrow(InvalidArgumentError);
    expect(() => parseSenderId('12345')).toThrow(InvalidArgumentError);
    await expect(
      db.query(`INSERT INTO company_senders (value, kind, company_id) VALUES ($1, 'toll_free', $2)`, [`+44744${unique()}`, company]),
    ).rejects.toThrow(/check constraint/);
  });

  const DEFAULTS = { otpIgnoresOptOuts: false, optOutReply: null, optInReply: null, helpReply: null };

  it('sets and clears the status callback address, audited', async () => {
    const company = await newCompany();
    expect(await settings.get(company)).toEqual({ statusCallbackUrl: null, inboundWebhookUrl: null, ...DEFAULTS });
    await settings.setStatusCallbackUrl(company, 'https://hooks.example.com/status');
    expect(await settings.get(company)).toEqual({ statusCallbackUrl: 'https://hooks.example.com/status', inboundWebhookUrl: null, ...DEFAULTS });
    await settings.setStatusCallbackUrl(company, null);
    expect(await settings.get(company)).toEqual({ statusCallbackUrl: null, inboundWebhookUrl: null, ...DEFAULTS });
    expect((await auditOf(company, 'settings.changed')).map((entry) => entry.details)).toEqual([
      { messaging: { status_callback_url: 'https://hooks.example.com/status' } },
      { messaging: { status_callback_url: null } },
    ]);
    await expect(settings.setStatusCallbackUrl('00000000-0000-4000-8000-000000000000', null)).rejects.toThrow(NotFoundError);
  });

  it('sets the inbound webhook address apart from the status callback, audited', async () => {
    const company = await newCompany();
    await settings.setStatusCallbackUrl(company, 'https://hooks.example.com/status');
    expect(await settings.setInboundWebhookUrl(company, 'https://hooks.example.com/inbound')).toEqual({
      statusCallbackUrl: 'https://hooks.example.com/status',
      inboundWebhookUrl: 'https://hooks.example.com/inbound',
      ...DEFAULTS,
    });
    expect((await auditOf(company, 'settings.changed')).map((entry) => entry.details)).toContainEqual({
      messaging: { inbound_webhook_url: 'https://hooks.example.com/inbound' },
    });
    await expect(settings.setInboundWebhookUrl('00000000-0000-4000-8000-000000000000', null)).rejects.toThrow(NotFoundError);
  });

  it('changes several settings at once with one audit entry, all or none; a null reply goes back to the default', async () => {
    const company = await newCompany();
    const changed = await settings.update(company, { otpIgnoresOptOuts: true, optOutReply: 'Bye.', helpReply: 'Call us.' });
    expect(changed).toEqual({
      statusCallbackUrl: null,
      inboundWebhookUrl: null,
      otpIgnoresOptOuts: true,
      optOutReply: 'Bye.',
      optInReply: null,
      helpReply: 'Call us.',
    });
    expect((await auditOf(company, 'settings.changed')).map((entry) => entry.details)).toEqual([
      { messaging: { otp_ignores_opt_outs: true, opt_out_reply: 'Bye.', help_reply: 'Call us.' } },
    ]);
    await expect(settings.update(company, { optOutReply: null, optInReply: 'x'.repeat(321) })).rejects.toThrow(/check constraint/);
    expect(await settings.get(company)).toMatchObject({ optOutReply: 'Bye.', optInReply: null });
    expect(await settings.update(company, { optOutReply: null })).toMatchObject({ optOutReply: null, helpReply: 'Call us.' });
    await expect(settings.update('00000000-0000-4000-8000-000000000000', { helpReply: 'x' })).rejects.toThrow(NotFoundError);
  });
});
