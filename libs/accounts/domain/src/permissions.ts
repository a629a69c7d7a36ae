import type { Role } from './people';

/** What a dashboard user may do; each route of the dashboard API names the one it needs. */
export const PERMISSIONS = [
  'keys.read',
  'keys.write',
  'members.read',
  'members.write',
  'audit.read',
  'applications.read',
  'applications.write',
  'messages.read',
  'messages.send',
  'campaigns.read',
  'campaigns.write',
  'verifications.read',
  'webhooks.read',
  'webhooks.write',
  'webhooks.secret',
  'billing.read',
  'billing.settings',
  'operator.companies',
  'operator.prices',
  'operator.balance',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** A developer builds with the platform: everything of their company but its members and billing settings. */
const DEVELOPER: readonly Permission[] = [
  'keys.read',
  'keys.write',
  'members.read',
  'audit.read',
  'applications.read',
  'applications.write',
  'messages.read',
  'messages.send',
  'campaigns.read',
  'campaigns.write',
  'verifications.read',
  'webhooks.read',
  'webhooks.write',
  'billing.read',
];
/** An owner: everything of their company, its webhook signing secret included (revealed and rotated by owners only). */
const OWNER: readonly Permission[] = [...DEVELOPER, 'members.write', 'billing.settings', 'webhooks.secret'];

const GRANTED: Record<Role, ReadonlySet<Permission>> = {
  developer: new Set(DEVELOPER),
  owner: new Set(OWNER),
  // An operator: everything of every company, and the platform's own pages.
  operator: new Set(PERMISSIONS),
};

export function mayDo(role: Role, permission: Permission): boolean {
  return GRANTED[role].has(permission);
}

/** Which company a request acts on: the user's own, or for an operator the one named by `company_id`. */
export type CompanyScope =
  | { kind: 'company'; companyId: string; /** An operator's choice: whether the company exists is still to be checked. */ chosen: boolean }
  /** An operator who named no company. */
  | { kind: 'missing' }
  /** A company user who named another company: answered as not found, never as forbidden. */
  | { kind: 'other-company' };

export function companyScope(user: { role: Role; companyId: string | null }, requested: string | undefined): CompanyScope {
  if (user.role === 'operator') return requested === undefined ? { kind: 'missing' } : { kind: 'company', companyId: requested, chosen: true };
  if (user.companyId === null) throw new Error(`a ${user.role} without a company`);
  if (requested !== undefined && requested !== user.companyId) return { kind: 'other-company' };
  return { kind: 'company', companyId: user.companyId, chosen: false };
}
