import { openTestDataSource } from '@mp/testing';
import { SettingError } from '@mp/accounts-domain';
import type { DataSource } from 'typeorm';
import {
  accountsRepositories,
  AccountsService,
  ApiKeyRepository,
  AuditLogRepository,
  DashboardSessions,
  EmailTakenError,
  InvitationUnusableError,
  LastOwnerError,
  NotFoundError,
  PeopleService,
  peopleRepositories,
  SessionRepository,
  ACCOUNTS_ENTITIES,
} from '../index';

const PEPPER = 'people-pepper-'.padEnd(40, 'x');
const PASSWORD = 'correct horse battery';
const LIMITS = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };

describe('dashboard people (PostgreSQL)', () => {
  let db: DataSource;
  let accounts: AccountsService;
  let people: PeopleService;
  let sessions: DashboardSessions;
  let audit: AuditLogRepository;
  let n = 0;
  const email = () => `person${++n}-${Date.now()}@example.com`;
  const company = async () => (await accounts.createCompany({ name: 'Acme', balance: '1' })).company_id;
  const actions = async (companyId: string) => (await audit.list(companyId, { limit: 100 })).items.map((entry) => entry.action);

  beforeAll(async () => {
    db = await openTestDataSource('test', ACCOUNTS_ENTITIES);
    accounts = new AccountsService(db, accountsRepositories(db), PEPPER);
    people = new PeopleService(db, peopleRepositories(db));
    sessions = new DashboardSessions(new SessionRepository(db), LIMITS);
    audit = new AuditLogRepository(db);
  });
  afterAll(() => db.destroy());

  it('makes owners, developers and operators, one account per email, and signs them in by password', async () => {
    const acme = await company();
    const address = email();
    const owner = await people.createUser({ companyId: acme, email: ` ${address.toUpperCase()} `, password: PASSWORD, role: 'owner' });
    expect(owner).toMatchObject({ email: address, role: 'owner', companyId: acme, companyName: 'Acme' });
    await expect(people.createUser({ companyId: acme, email: address, password: PASSWORD, role: 'developer' })).rejects.toThrow(EmailTakenError);
    await expect(people.createUser({ companyId: acme, email: email(), password: 'short', role: 'owner' })).rejects.toThrow(SettingError);
    await expect(people.createUser({ companyId: null, email: email(), password: PASSWORD, role: 'owner' })).rejects.toThrow(/belongs to a company/);
    await expect(people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'operator' })).rejects.toThrow(/no company/);
    await expect(people.createUser({ companyId: '00000000-0000-4000-8000-000000000000', email: email(), password: PASSWORD, role: 'owner' })).rejects.toThrow(
      NotFoundError,
    );
    const operator = await people.createUser({ companyId: null, email: email(), password: PASSWORD, role: 'operator' });
    expect(operator).toMatchObject({ role: 'operator', companyId: null, companyName: null });

    expect(await people.checkSignIn(address.toUpperCase(), PASSWORD)).toMatchObject({ id: owner.id });
    expect(await people.checkSignIn(address, `${PASSWORD}!`)).toBeNull();
    expect(await people.checkSignIn('nobody@example.com', PASSWORD)).toBeNull();
    expect(await people.checkSignIn('not an email', PASSWORD)).toBeNull();
    const stored: { password_hash: string }[] = await db.query(`SELECT password_hash FROM users WHERE id = $1`, [owner.id]);
    expect(stored[0].password_hash).toMatch(/^\$argon2id\$/);
    expect(await actions(acme)).toEqual(['member.created', 'company.created']);
  });

  it('invites by a one-time link that makes the account, once, within 7 days', async () => {
    const acme = await company();
    const owner = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'owner' });
    const invited = email();
    const invitation = await people.invite(acme, { email: invited, role: 'developer' }, owner.id);
    expect(invitation.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const hashes: { token_hash: Buffer }[] = await db.query(`SELECT token_hash FROM invitations WHERE id = $1`, [invitation.id]);
    expect(hashes[0].token_hash.toString('base64url')).not.toBe(invitation.token);
    expect((await people.listMembers(acme)).invitations).toEqual([{ id: invitation.id, email: invited, role: 'developer', expiresAt: invitation.expiresAt }]);
    await expect(people.invite(acme, { email: owner.email, role: 'developer' }, owner.id)).rejects.toThrow(EmailTakenError);
    await expect(people.invite(acme, { email: email(), role: 'operator' }, owner.id)).rejects.toThrow(SettingError);

    await expect(people.acceptInvitation(invitation.token, 'short')).rejects.toThrow(SettingError);
    const joined = await people.acceptInvitation(invitation.token, PASSWORD);
    expect(joined).toMatchObject({ email: invited, role: 'developer', companyId: acme });
    await expect(people.acceptInvitation(invitation.token, PASSWORD)).rejects.toThrow(new InvitationUnusableError('accepted'));
    await expect(people.acceptInvitation('x'.repeat(43), PASSWORD)).rejects.toThrow(new InvitationUnusableError('unknown'));
    const late = await people.invite(acme, { email: email(), role: 'owner' }, owner.id, new Date(Date.now() - 8 * 24 * 3_600_000));
    await expect(people.acceptInvitation(late.token, PASSWORD)).rejects.toThrow(new InvitationUnusableError('expired'));
    const listed = await people.listMembers(acme);
    expect(listed.members.map((member) => member.email)).toEqual([owner.email, invited]);
    expect(listed.invitations).toEqual([]);
    expect((await audit.list(acme, { limit: 2 })).items.map(({ action, actor }) => ({ action, actor: actor?.email }))).toEqual([
      { action: 'member.invited', actor: owner.email },
      { action: 'member.joined', actor: invited },
    ]);
  });

  it('cancels a pending invitation of the company only, whose link then names nothing, and audits it', async () => {
    const acme = await company();
    const globex = await company();
    const owner = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'owner' });
    const invited = email();
    const invitation = await people.invite(acme, { email: invited, role: 'developer' }, owner.id);
    await expect(people.cancelInvitation(globex, invitation.id, null)).rejects.toThrow(new NotFoundError('Invitation not found'));
    await expect(people.cancelInvitation(acme, 'nope', owner.id)).rejects.toThrow(NotFoundError);
    await people.cancelInvitation(acme, invitation.id, owner.id);
    expect((await people.listMembers(acme)).invitations).toEqual([]);
    await expect(people.acceptInvitation(invitation.token, PASSWORD)).rejects.toThrow(new InvitationUnusableError('unknown'));
    await expect(people.cancelInvitation(acme, invitation.id, owner.id)).rejects.toThrow(NotFoundError);
    const [latest] = (await audit.list(acme, { limit: 1 })).items;
    expect(latest).toMatchObject({
      action: 'invitation.cancelled',
      actor: { email: owner.email },
      details: { invitation_id: invitation.id, email: invited, role: 'developer' },
    });

    const accepted = await people.invite(acme, { email: email(), role: 'developer' }, owner.id);
    await people.acceptInvitation(accepted.token, PASSWORD);
    await expect(people.cancelInvitation(acme, accepted.id, owner.id)).rejects.toThrow(NotFoundError);
  });

  it('removes a member and ends their sessions, but never the last owner nor another company’s member', async () => {
    const acme = await company();
    const globex = await company();
    const owner = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'owner' });
    const developer = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'developer' });
    const outsider = await people.createUser({ companyId: globex, email: email(), password: PASSWORD, role: 'owner' });
    const session = await sessions.start(developer.id);
    expect(await sessions.resolve(session.token)).toMatchObject({ user: { id: developer.id } });

    await expect(people.removeMember(acme, owner.id, owner.id)).rejects.toThrow(LastOwnerError);
    await expect(people.removeMember(acme, outsider.id, owner.id)).rejects.toThrow(NotFoundError);
    await expect(people.removeMember(acme, 'nope', owner.id)).rejects.toThrow(NotFoundError);
    await people.removeMember(acme, developer.id, owner.id);
    expect(await sessions.resolve(session.token)).toBeNull();
    expect(await people.checkSignIn(developer.email, PASSWORD)).toBeNull();
    await expect(people.removeMember(acme, developer.id, owner.id)).rejects.toThrow(NotFoundError);
    expect((await people.listMembers(acme)).members.map((member) => member.id)).toEqual([owner.id]);
    // The removed member's email may be invited again.
    await people.invite(acme, { email: developer.email, role: 'developer' }, owner.id);
  });

  it('keeps sessions as token hashes, ended by sign-out, sign-out everywhere, and the idle and absolute timeouts', async () => {
    const acme = await company();
    const user = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'owner' });
    const signedIn = new Date('2030-01-01T08:00:00Z');
    const at = (minutes: number) => new Date(signedIn.getTime() + minutes * 60_000);
    const first = await sessions.start(user.id, signedIn);
    const stored: { token_hash: Buffer }[] = await db.query(`SELECT token_hash FROM user_sessions WHERE user_id = $1`, [user.id]);
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash.toString('base64url')).not.toBe(first.token);

    expect(await sessions.resolve(first.token, at(29))).toMatchObject({ user: { id: user.id }, csrfToken: first.csrfToken });
    expect(await sessions.resolve(first.token, at(58))).not.toBeNull(); // seen at 29: not idle yet
    expect(await sessions.resolve(first.token, at(88))).toBeNull(); // idle since 58
    expect(await sessions.resolve(first.token, at(58))).toBeNull(); // and gone

    const busy = await sessions.start(user.id, signedIn);
    for (let minute = 20; minute < 720; minute += 20) expect(await sessions.resolve(busy.token, at(minute))).not.toBeNull();
    expect(await sessions.resolve(busy.token, at(720))).toBeNull();

    const a = await sessions.start(user.id);
    const b = await sessions.start(user.id);
    const resolved = await sessions.resolve(a.token);
    if (!resolved) throw new Error('the session should be live');
    await sessions.end(resolved.id);
    expect(await sessions.resolve(a.token)).toBeNull();
    expect(await sessions.resolve(b.token)).not.toBeNull();
    await sessions.start(user.id);
    expect(await sessions.endAll(user.id)).toBe(2);
    expect(await sessions.resolve(b.token)).toBeNull();
  });

  it('lists a company’s keys with their use, revokes them for that company only, and audits each change', async () => {
    const acme = await company();
    const globex = await company();
    const owner = await people.createUser({ companyId: acme, email: email(), password: PASSWORD, role: 'owner' });
    const keys = new ApiKeyRepository(db);
    const created = await accounts.createKey(acme, owner.id);
    expect(created).toEqual({ id: expect.any(String), api_key: expect.stringMatching(/^mpk_/), api_secret: expect.any(String), created_at: expect.any(Date) });
    const listed = await keys.listForCompany(acme);
    expect(listed).toHaveLength(2);
    expect(listed[0]).toEqual({ id: created.id, key: created.api_key, createdAt: created.created_at, lastUsedAt: null, revokedAt: null });

    await keys.markUsed([created.id]);
    const used = (await keys.listForCompany(acme))[0].lastUsedAt;
    expect(used).toBeInstanceOf(Date);
    await keys.markUsed([created.id]);
    expect((await keys.listForCompany(acme))[0].lastUsedAt).toEqual(used);

    await expect(accounts.revokeCompanyKey(globex, created.id, null)).rejects.toThrow(NotFoundError);
    await expect(accounts.revokeCompanyKey(acme, 'nope', owner.id)).rejects.toThrow(NotFoundError);
    const revoked = await accounts.revokeCompanyKey(acme, created.id, owner.id);
    expect(revoked).toEqual({ id: created.id, revoked_at: expect.any(Date) });
    expect(await accounts.revokeCompanyKey(acme, created.id, owner.id)).toEqual(revoked);
    expect(await keys.findActiveById(created.id)).toBeNull();

    await accounts.topUp(acme, '2.5', owner.id);
    await accounts.updateCompany(acme, { otp_rate_limit: '50' }, owner.id);
    const entries = (await audit.list(acme, { limit: 100 })).items;
    expect(entries.map(({ action, actor, details }) => ({ action, actor: actor?.email ?? null, details }))).toEqual([
      { action: 'settings.changed', actor: owner.email, details: { company: { otp_rate_limit: 50 } } },
      { action: 'balance.topped_up', actor: owner.email, details: { amount: 2.5, balance: 3.5 } },
      { action: 'key.revoked', actor: owner.email, details: { key_id: created.id, api_key: created.api_key } },
      { action: 'key.created', actor: owner.email, details: { key_id: created.id, api_key: created.api_key } },
      { action: 'member.created', actor: null, details: { user_id: owner.id, email: owner.email, role: 'owner' } },
      { action: 'company.created', actor: null, details: expect.objectContaining({ name: 'Acme', opening_balance: 1 }) },
    ]);
    expect(await actions(globex)).toEqual(['company.created']);
  });

  it('pages the audit log newest first by cursor', async () => {
    const acme = await company();
    for (let i = 0; i < 4; i++) await accounts.topUp(acme, '1');
    const first = await audit.list(acme, { limit: 3 });
    expect(first.items.map((entry) => entry.action)).toEqual(['balance.topped_up', 'balance.topped_up', 'balance.topped_up']);
    expect(first.nextCursor).toBe(first.items[2].id);
    const second = await audit.list(acme, { before: first.nextCursor ?? undefined, limit: 3 });
    expect(second.items.map((entry) => entry.action)).toEqual(['balance.topped_up', 'company.created']);
    expect(second.nextCursor).toBeNull();
  });
});
