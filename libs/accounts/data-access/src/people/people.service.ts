import {
  checkPassword,
  COMPANY_ROLES,
  INVITATION_TTL_MS,
  invitationState,
  normalizeEmail,
  parseRole,
  SettingError,
  type CompanyRole,
  type Role,
} from '@mp/accounts-domain';
import { generateOpaqueToken, hashPassword, isOpaqueTokenShaped, passwordMatches, spendPasswordCheck, tokenHash } from '@mp/auth';
import type { DataSource } from 'typeorm';
import { CompanyRepository } from '../company.repository';
import { EmailTakenError, InvitationUnusableError, LastOwnerError, NotFoundError } from '../errors';
import { AuditLogRepository, type AuditActor } from './audit-log.repository';
import { InvitationRepository, type PendingInvitation } from './invitation.repository';
import { SessionRepository } from './session.repository';
import { UserRepository, type UserRecord } from './user.repository';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface PeopleRepositories {
  users: UserRepository;
  sessions: SessionRepository;
  invitations: InvitationRepository;
  audit: AuditLogRepository;
  companies: CompanyRepository;
}

export function peopleRepositories(db: DataSource): PeopleRepositories {
  return {
    users: new UserRepository(db),
    sessions: new SessionRepository(db),
    invitations: new InvitationRepository(db),
    audit: new AuditLogRepository(db),
    companies: new CompanyRepository(db),
  };
}

/** An invitation just made: `token` goes into the link and is never stored or shown again. */
export interface CreatedInvitation extends PendingInvitation {
  token: string;
}

/**
 * The people of the dashboard: accounts made by an operator, sign-in checks, invitations and
 * members. Every change is written to the audit log in its own transaction.
 */
export class PeopleService {
  constructor(
    private readonly db: DataSource,
    private readonly repositories: PeopleRepositories,
  ) {}

  /** `admin user:create`: a company's owner or developer, or (no company) an operator. */
  async createUser(input: { companyId: string | null; email: string; password: string; role: string }, actor: AuditActor = null): Promise<UserRecord> {
    const role = parseRole(input.role);
    const email = normalizeEmail(input.email);
    checkPassword(input.password);
    if ((role === 'operator') !== (input.companyId === null)) {
      throw new SettingError(role === 'operator' ? 'an operator belongs to no company' : `a ${role} belongs to a company`);
    }
    if (input.companyId !== null) await this.requireCompany(input.companyId);
    const passwordHash = await hashPassword(input.password);
    return this.db.transaction(async (manager) => {
      const user = await this.repositories.users.insert(manager, { email, passwordHash, role, companyId: input.companyId });
      await this.repositories.audit.record(manager, {
        companyId: user.companyId,
        actor,
        action: role === 'operator' ? 'operator.created' : 'member.created',
        details: { user_id: user.id, email, role },
      });
      return user;
    });
  }

  /** The account with this email and password; null for any other pair (an unknown email costs the same time). */
  async checkSignIn(email: string, password: string): Promise<UserRecord | null> {
    let normalized: string;
    try {
      normalized = normalizeEmail(email);
    } catch {
      return spendPasswordCheck(password).then(() => null);
    }
    const found = await this.repositories.users.findForSignIn(normalized);
    if (!found) return spendPasswordCheck(password).then(() => null);
    return (await passwordMatches(password, found.passwordHash)) ? found.user : null;
  }

  async listMembers(companyId: string, now = new Date()): Promise<{ members: UserRecord[]; invitations: PendingInvitation[] }> {
    const [members, invitations] = await Promise.all([
      this.repositories.users.listMembers(companyId),
      this.repositories.invitations.listPending(companyId, now),
    ]);
    return { members, invitations };
  }

  /** A one-time link for `email` to join the company as `role`, valid 7 days. */
  async invite(companyId: string, input: { email: string; role: string }, actor: AuditActor, now = new Date()): Promise<CreatedInvitation> {
    const email = normalizeEmail(input.email);
    const role = parseCompanyRole(input.role);
    const token = generateOpaqueToken();
    return this.db.transaction(async (manager) => {
      if (await this.repositories.users.emailTaken(manager, email)) throw new EmailTakenError(email);
      const invitation = await this.repositories.invitations.insert(manager, {
        companyId,
        email,
        role,
        tokenHash: tokenHash(token),
        invitedBy: actor,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
      });
      await this.repositories.audit.record(manager, { companyId, actor, action: 'member.invited', details: { invitation_id: invitation.id, email, role } });
      return { ...invitation, token };
    });
  }

  /** Makes the invited account with this password; the link works once (InvitationUnusableError after). */
  async acceptInvitation(token: string, password: string, now = new Date()): Promise<UserRecord> {
    checkPassword(password);
    if (!isOpaqueTokenShaped(token)) throw new InvitationUnusableError('unknown');
    const passwordHash = await hashPassword(password);
    return this.db.transaction(async (manager) => {
      const invitation = await this.repositories.invitations.lockByTokenHash(manager, tokenHash(token));
      if (!invitation) throw new InvitationUnusableError('unknown');
      const state = invitationState(invitation, now);
      if (state !== 'pending') throw new InvitationUnusableError(state);
      const user = await this.repositories.users.insert(manager, {
        email: invitation.email,
        passwordHash,
        role: invitation.role,
        companyId: invitation.companyId,
      });
      await this.repositories.invitations.markAccepted(manager, invitation.id, user.id, now);
      await this.repositories.audit.record(manager, {
        companyId: invitation.companyId,
        actor: user.id,
        action: 'member.joined',
        details: { user_id: user.id, email: user.email, role: user.role, invitation_id: invitation.id },
      });
      return user;
    });
  }

  /** Withdraws an invitation not yet accepted: its link answers "not found" from then on. */
  async cancelInvitation(companyId: string, invitationId: string, actor: AuditActor): Promise<void> {
    if (!UUID.test(invitationId)) throw new NotFoundError('Invitation not found');
    await this.db.transaction(async (manager) => {
      const cancelled = await this.repositories.invitations.deletePending(manager, companyId, invitationId);
      if (!cancelled) throw new NotFoundError('Invitation not found');
      await this.repositories.audit.record(manager, {
        companyId,
        actor,
        action: 'invitation.cancelled',
        details: { invitation_id: invitationId, email: cancelled.email, role: cancelled.role },
      });
    });
  }

  /** Removes a member of the company and ends their sessions; never the company's last owner. */
  async removeMember(companyId: string, userId: string, actor: AuditActor): Promise<void> {
    if (!UUID.test(userId)) throw new NotFoundError('Member not found');
    await this.db.transaction(async (manager) => {
      const members = await this.repositories.users.lockMembers(manager, companyId);
      const member = members.find((candidate) => candidate.id === userId);
      if (!member) throw new NotFoundError('Member not found');
      if (member.role === 'owner' && members.filter((candidate) => candidate.role === 'owner').length === 1) throw new LastOwnerError();
      await this.repositories.users.markRemoved(manager, userId);
      await this.repositories.sessions.deleteForUser(userId, manager);
      await this.repositories.audit.record(manager, {
        companyId,
        actor,
        action: 'member.removed',
        details: { user_id: userId, email: member.email, role: member.role },
      });
    });
  }

  private async requireCompany(companyId: string): Promise<void> {
    if (!UUID.test(companyId) || !(await this.repositories.companies.findById(companyId))) throw new NotFoundError(`no company ${companyId}`);
  }
}

function parseCompanyRole(text: string): CompanyRole {
  const role: Role = parseRole(text);
  if (role === 'operator') throw new SettingError(`role must be one of ${COMPANY_ROLES.join(', ')}`);
  return role;
}
