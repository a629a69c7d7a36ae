import { checkPassword, normalizeEmail, parseRole, passwordProblem } from './people';
import { companyScope, mayDo, PERMISSIONS } from './permissions';
import { needsTouch, sessionCookieMaxAgeSeconds, sessionState, touchIntervalMs } from './session-timeouts';
import { invitationState, INVITATION_TTL_MS, signInLockedMessage } from './sign-in-rules';
import { SettingError } from './setting-error';

const COMPANY = '0195f7a2-0000-7000-8000-00000000000c';
const OTHER = '0195f7a2-0000-7000-8000-00000000000d';

describe('passwords and emails', () => {
  it('takes passwords of 10 to 256 characters, counted as people count them', () => {
    expect(passwordProblem('123456789')).toBe('password must be at least 10 characters');
    expect(passwordProblem('1234567890')).toBeNull();
    expect(passwordProblem('😀'.repeat(10))).toBeNull();
    expect(passwordProblem('😀'.repeat(9))).toMatch(/at least 10/);
    expect(passwordProblem('x'.repeat(256))).toBeNull();
    expect(passwordProblem('x'.repeat(257))).toBe('password must be at most 256 characters');
    expect(() => checkPassword('short')).toThrow(SettingError);
  });

  it('finds an account by its email however it is typed, and refuses what is no email', () => {
    expect(normalizeEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    for (const text of ['', 'ada', 'ada@example', 'a da@example.com', '@example.com', `${'a'.repeat(250)}@x.io`]) {
      expect(() => normalizeEmail(text)).toThrow(SettingError);
    }
  });

  it('knows the three roles and no other', () => {
    expect(parseRole('owner')).toBe('owner');
    expect(parseRole('operator')).toBe('operator');
    expect(() => parseRole('admin')).toThrow(/owner, developer, operator/);
  });
});

describe('roles', () => {
  it('lets a developer work with keys but not change members or billing settings', () => {
    expect(mayDo('developer', 'keys.write')).toBe(true);
    expect(mayDo('developer', 'members.read')).toBe(true);
    expect(mayDo('developer', 'members.write')).toBe(false);
    expect(mayDo('developer', 'billing.settings')).toBe(false);
    expect(mayDo('developer', 'webhooks.secret')).toBe(false);
    expect(mayDo('developer', 'operator.companies')).toBe(false);
  });

  it('lets an owner do everything of the company, and an operator everything', () => {
    expect(mayDo('owner', 'members.write')).toBe(true);
    expect(mayDo('owner', 'billing.settings')).toBe(true);
    expect(mayDo('owner', 'webhooks.secret')).toBe(true);
    expect(mayDo('owner', 'operator.balance')).toBe(false);
    expect(PERMISSIONS.every((permission) => mayDo('operator', permission))).toBe(true);
  });

  it("scopes a company user to their company, and another company's id to not found", () => {
    const developer = { role: 'developer' as const, companyId: COMPANY };
    expect(companyScope(developer, undefined)).toEqual({ kind: 'company', companyId: COMPANY, chosen: false });
    expect(companyScope(developer, COMPANY)).toEqual({ kind: 'company', companyId: COMPANY, chosen: false });
    expect(companyScope(developer, OTHER)).toEqual({ kind: 'other-company' });
  });

  it('has an operator name the company', () => {
    const operator = { role: 'operator' as const, companyId: null };
    expect(companyScope(operator, undefined)).toEqual({ kind: 'missing' });
    expect(companyScope(operator, OTHER)).toEqual({ kind: 'company', companyId: OTHER, chosen: true });
  });
});

describe('session timeouts', () => {
  const limits = { idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 };
  const signedIn = new Date('2026-01-10T08:00:00Z');
  const at = (ms: number) => new Date(signedIn.getTime() + ms);

  it('ends a session idle for the idle timeout', () => {
    expect(sessionState({ createdAt: signedIn, lastSeenAt: signedIn }, at(30 * 60_000 - 1), limits)).toBe('active');
    expect(sessionState({ createdAt: signedIn, lastSeenAt: signedIn }, at(30 * 60_000), limits)).toBe('idle');
    expect(sessionState({ createdAt: signedIn, lastSeenAt: at(3_600_000) }, at(3_600_000 + 29 * 60_000), limits)).toBe('active');
  });

  it('ends a session at its absolute timeout, however busy', () => {
    const busy = { createdAt: signedIn, lastSeenAt: at(12 * 3_600_000 - 1_000) };
    expect(sessionState(busy, at(12 * 3_600_000 - 1), limits)).toBe('active');
    expect(sessionState(busy, at(12 * 3_600_000), limits)).toBe('expired');
  });

  it('writes the last request time once it lags by a minute, or a twentieth of a short idle timeout', () => {
    expect(touchIntervalMs(limits)).toBe(60_000);
    expect(needsTouch({ createdAt: signedIn, lastSeenAt: signedIn }, at(59_999), limits)).toBe(false);
    expect(needsTouch({ createdAt: signedIn, lastSeenAt: signedIn }, at(60_000), limits)).toBe(true);
    const short = { idleMs: 3_000, maxMs: 10_000 };
    expect(touchIntervalMs(short)).toBe(150);
    expect(needsTouch({ createdAt: signedIn, lastSeenAt: signedIn }, at(150), short)).toBe(true);
  });

  it('gives the cookie the absolute timeout as its lifetime', () => {
    expect(sessionCookieMaxAgeSeconds(limits)).toBe(43_200);
    expect(sessionCookieMaxAgeSeconds({ idleMs: 100, maxMs: 200 })).toBe(1);
  });
});

describe('sign-in locks and invitations', () => {
  it('says whose failures locked the sign-in and for how many minutes', () => {
    expect(signInLockedMessage('account', 14 * 60_000 + 1)).toBe('Too many failed sign-ins for this account; try again in 15 minutes');
    expect(signInLockedMessage('address', 1_000)).toBe('Too many failed sign-ins from this address; try again in 1 minute');
  });

  it('keeps an invitation pending for 7 days, until it is accepted', () => {
    const sent = new Date('2026-01-10T08:00:00Z');
    const expiresAt = new Date(sent.getTime() + INVITATION_TTL_MS);
    expect(invitationState({ expiresAt, acceptedAt: null }, new Date(expiresAt.getTime() - 1))).toBe('pending');
    expect(invitationState({ expiresAt, acceptedAt: null }, expiresAt)).toBe('expired');
    expect(invitationState({ expiresAt, acceptedAt: sent }, sent)).toBe('accepted');
  });
});
