import { SettingError } from './setting-error';

/**
 * The people of the dashboard: a user of a company is its `owner` or a `developer`; an
 * `operator` runs the platform and belongs to no company.
 */
export const COMPANY_ROLES = ['owner', 'developer'] as const;
export const ROLES = [...COMPANY_ROLES, 'operator'] as const;
export type CompanyRole = (typeof COMPANY_ROLES)[number];
export type Role = (typeof ROLES)[number];

/** Passwords: at least 10 characters (NIST SP 800-63B asks 8), at most 256 (a hash of a megabyte is work for nothing). */
export const PASSWORD_LENGTH = { min: 10, max: 256 } as const;

/** Why a password is refused; null when it is acceptable. Counted in characters, as people count. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return `password must be at least ${PASSWORD_LENGTH.min} characters`;
  if (length > PASSWORD_LENGTH.max) return `password must be at most ${PASSWORD_LENGTH.max} characters`;
  return null;
}

/** Throws SettingError (the message names the rule) for a password passwordProblem refuses. */
export function checkPassword(password: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new SettingError(problem);
  return password;
}

/** RFC 5321 caps an address at 254 characters; the shape is local@domain.tld, no spaces. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email as users are found by: trimmed and lower-cased (one account per mailbox, however it is typed). */
export function normalizeEmail(text: string): string {
  const email = text.trim().toLowerCase();
  if (email.length > 254 || !EMAIL_SHAPE.test(email)) throw new SettingError(`"${text}" is not an email address`);
  return email;
}

export function parseRole(text: string): Role {
  if (!(ROLES as readonly string[]).includes(text)) throw new SettingError(`role must be one of ${ROLES.join(', ')}`);
  return text as Role;
}
