import {
  DEFAULT_CURRENCY,
  DEFAULT_OTP_RATE_LIMIT,
  parseCompanyName,
  parseCompanySettingUpdates,
  parseCurrency,
  resolveApplicationSettings,
  updateApplicationSettings,
  type ApplicationSettings,
} from '@mp/accounts-domain';
import { generateApiKey, generateWebhookSecret } from '@mp/auth';
import { AlreadyAppliedError, LedgerRepository } from '@mp/billing';
import { Money, moneyToJson, parseCreditAmount, parseTopUp, TopUpError } from '@mp/billing-domain';
import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CompanyRepository } from './company.repository';
import type { ApplicationEntity } from './entities';
import { AlreadyRecordedError, InvalidArgumentError, NotFoundError } from './errors';
import { AuditLogRepository, type AuditActor } from './people/audit-log.repository';

export const FIRST_APPLICATION_NAME = 'default';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface CreatedCompany {
  company_id: string;
  api_key: string;
  api_secret: string;
  appid: string;
  app_name: string;
  webhook_secret: string;
}

/** The repositories AccountsService writes with. */
export interface AccountsRepositories {
  companies: CompanyRepository;
  applications: ApplicationRepository;
  keys: ApiKeyRepository;
  ledger: LedgerRepository;
  audit: AuditLogRepository;
}

/** A key pair just made: the secret is shown this once. */
export interface CreatedKey {
  id: string;
  api_key: string;
  api_secret: string;
  created_at: Date;
}

/** AccountsService's repositories on this data source, for a caller that wires it by hand (the admin tool, tests). */
export function accountsRepositories(db: DataSource): AccountsRepositories {
  return {
    companies: new CompanyRepository(db),
    applications: new ApplicationRepository(db),
    keys: new ApiKeyRepository(db),
    ledger: new LedgerRepository(db),
    audit: new AuditLogRepository(db),
  };
}

/**
 * Account management: companies, applications, keys and top-ups, each change written to the
 * audit log in its transaction with who made it (a dashboard user's id; null: the admin tool).
 * Used by the admin tool and the dashboard; never reachable through the public API.
 */
export class AccountsService {
  private readonly companies: CompanyRepository;
  private readonly applications: ApplicationRepository;
  private readonly keys: ApiKeyRepository;
  private readonly ledger: LedgerRepository;
  private readonly audit: AuditLogRepository;

  constructor(
    private readonly db: DataSource,
    repositories: AccountsRepositories,
    private readonly apiKeyPepper: string,
  ) {
    ({ companies: this.companies, applications: this.applications, keys: this.keys, ledger: this.ledger, audit: this.audit } = repositories);
  }

  /** A company with its balance, a first application, an API key pair and a webhook secret. */
  async createCompany(input: { name: string; balance: string; currency?: string }, actor: AuditActor = null): Promise<CreatedCompany> {
    const name = parseCompanyName(input.name);
    const currency = parseCurrency(input.currency ?? DEFAULT_CURRENCY);
    const balance = this.parseAmount(input.balance, 'balance', { allowZero: true });
    const webhookSecret = generateWebhookSecret();
    const apiKey = generateApiKey(this.apiKeyPepper);
    return this.db.transaction(async (manager) => {
      const company = await this.companies.insert(manager, {
        name,
        currency,
        otpRateLimit: DEFAULT_OTP_RATE_LIMIT,
        webhookSecret,
      });
      await this.ledger.openBalance(manager, company.id);
      if (balance > 0n) {
        await this.ledger.apply({ companyId: company.id, kind: 'topup', amount: balance, description: 'opening balance' }, manager);
      }
      const application = await this.insertApplication(manager, company.id, FIRST_APPLICATION_NAME);
      const key = await this.keys.insert(manager, { companyId: company.id, key: apiKey.key, secretHash: apiKey.secretHash });
      await this.audit.record(manager, {
        companyId: company.id,
        actor,
        action: 'company.created',
        details: { name, currency, opening_balance: moneyToJson(balance), appid: application.appid, key_id: key.id, api_key: apiKey.key },
      });
      return {
        company_id: company.id,
        api_key: apiKey.key,
        api_secret: apiKey.secret,
        appid: application.appid,
        app_name: application.name,
        webhook_secret: webhookSecret,
      };
    });
  }

  async updateCompany(companyId: string, updates: Record<string, string>, actor: AuditActor = null) {
    const settings = parseCompanySettingUpdates(updates);
    await this.requireCompany(companyId);
    const company = await this.db.transaction(async (manager) => {
      const updated = await this.companies.update(companyId, settings, manager);
      await this.audit.record(manager, { companyId, actor, action: 'settings.changed', details: { company: settings } });
      return updated;
    });
    if (!company) throw new NotFoundError(`no company ${companyId}`);
    return {
      company_id: company.id,
      name: company.name,
      currency: company.currency,
      otp_rate_limit: company.otpRateLimit,
    };
  }

  /** A new application of the company, with the settings given as `key=value` texts (the rest default). */
  async createApplication(
    companyId: string,
    name: string,
    actor: AuditActor = null,
    settingUpdates: Record<string, string> = {},
  ): Promise<{ appid: string; app_name: string }> {
    await this.requireCompany(companyId);
    const appName = parseCompanyName(name);
    const settings = updateApplicationSettings(resolveApplicationSettings({}), settingUpdates);
    const chosen = pick(settings, Object.keys(settingUpdates));
    try {
      const application = await this.db.transaction(async (manager) => {
        const created = await this.insertApplication(manager, companyId, appName);
        if (Object.keys(chosen).length > 0) await this.applications.saveSettings(created.id, chosen, manager);
        const details = { appid: created.appid, name: appName, ...(Object.keys(chosen).length > 0 ? { settings: chosen } : {}) };
        await this.audit.record(manager, { companyId, actor, action: 'application.created', details });
        return created;
      });
      return { appid: application.appid, app_name: application.name };
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw new InvalidArgumentError(`the company already has an application named "${appName}"`);
      }
      throw error;
    }
  }

  /** `admin app:update`: settings as `key=value` texts, by appid whichever company has it. */
  async updateApplication(
    appid: string,
    updates: Record<string, string>,
    actor: AuditActor = null,
  ): Promise<{ appid: string; app_name: string; settings: ApplicationSettings }> {
    const application = await this.applications.findByAppid(appid);
    if (!application) throw new NotFoundError(`no application ${appid}`);
    return this.applyApplicationChange(application, { settings: updates }, actor);
  }

  /**
   * The dashboard's change of one of the company's applications (another's is not found): a new
   * name and settings as `key=value` texts, refused whole before anything changes.
   */
  async changeCompanyApplication(
    companyId: string,
    appid: string,
    change: { name?: string; settings: Record<string, string> },
    actor: AuditActor,
  ): Promise<{ appid: string; app_name: string; settings: ApplicationSettings }> {
    const application = await this.applications.findForCompany(companyId, appid);
    if (!application) throw new NotFoundError('Application not found');
    return this.applyApplicationChange(application, change, actor);
  }

  /** The one way an application's name and settings change, with its audit entry in the same transaction. */
  private async applyApplicationChange(
    application: ApplicationEntity,
    change: { name?: string; settings: Record<string, string> },
    actor: AuditActor,
  ): Promise<{ appid: string; app_name: string; settings: ApplicationSettings }> {
    const settings = updateApplicationSettings(resolveApplicationSettings(application.settings), change.settings);
    const changes: Record<string, unknown> = pick(settings, Object.keys(change.settings));
    const name = change.name === undefined ? application.name : parseCompanyName(change.name);
    if (name !== application.name) changes['name'] = name;
    try {
      await this.db.transaction(async (manager) => {
        await this.applications.saveSettings(application.id, { ...application.settings, ...pick(settings, Object.keys(change.settings)) }, manager);
        if (name !== application.name) await this.applications.rename(manager, application.id, name);
        await this.audit.record(manager, {
          companyId: application.companyId,
          actor,
          action: 'settings.changed',
          details: { appid: application.appid, application: changes },
        });
      });
    } catch (error) {
      if ((error as { code?: string }).code === '23505') throw new InvalidArgumentError(`the company already has an application named "${name}"`);
      throw error;
    }
    return { appid: application.appid, app_name: name, settings };
  }

  /** The one way a key pair is made, for the admin tool and the dashboard alike. */
  async createKey(companyId: string, actor: AuditActor = null): Promise<CreatedKey> {
    await this.requireCompany(companyId);
    const apiKey = generateApiKey(this.apiKeyPepper);
    return this.db.transaction(async (manager) => {
      const key = await this.keys.insert(manager, { companyId, key: apiKey.key, secretHash: apiKey.secretHash });
      await this.audit.record(manager, { companyId, actor, action: 'key.created', details: { key_id: key.id, api_key: apiKey.key } });
      return { id: key.id, api_key: apiKey.key, api_secret: apiKey.secret, created_at: key.createdAt };
    });
  }

  /** `admin key:revoke`: the key by its public id, whichever company has it. */
  async revokeKey(key: string, actor: AuditActor = null): Promise<{ revoked: true }> {
    await this.db.transaction(async (manager) => {
      const revoked = await this.keys.revoke(key, manager);
      if (!revoked) throw new NotFoundError(`no active API key ${key}`);
      await this.audit.record(manager, { companyId: revoked.companyId, actor, action: 'key.revoked', details: { key_id: revoked.id, api_key: key } });
    });
    return { revoked: true };
  }

  /** The company's key with this id revoked (already revoked: its time); NotFoundError for a key of no company's or another's. */
  async revokeCompanyKey(companyId: string, keyId: string, actor: AuditActor): Promise<{ id: string; revoked_at: Date }> {
    if (!UUID.test(keyId)) throw new NotFoundError('API key not found');
    return this.db.transaction(async (manager) => {
      const revoked = await this.keys.revokeForCompany(manager, companyId, keyId);
      if (!revoked) throw new NotFoundError('API key not found');
      if (revoked.revokedNow) {
        await this.audit.record(manager, { companyId, actor, action: 'key.revoked', details: { key_id: keyId, api_key: revoked.key } });
      }
      return { id: keyId, revoked_at: revoked.revokedAt };
    });
  }

  /** `admin balance:topup`: topUpBy, its balance as a JSON number. */
  async topUp(companyId: string, amount: string, actor: AuditActor = null): Promise<{ balance: number }> {
    const { balance } = await this.topUpBy(companyId, { amount }, actor);
    return { balance: moneyToJson(balance) };
  }

  /**
   * The one way a balance is topped up (the admin tool and the operators' dashboard): a `topup`
   * ledger entry and its audit entry with who made it, in one transaction. A reference makes it
   * happen once per company (AlreadyRecordedError the second time).
   */
  async topUpBy(
    companyId: string,
    input: { amount: string; reference?: string | null },
    actor: AuditActor,
  ): Promise<{ amount: Money; balance: Money; reference: string | null }> {
    await this.requireCompany(companyId);
    const { amount, reference } = invalidArgument(() => parseTopUp(input));
    try {
      const balance = await this.db.transaction(async (manager) => {
        const after = await this.ledger.apply({ companyId, kind: 'topup', amount, reference: reference ?? undefined, description: 'operator top-up' }, manager);
        await this.audit.record(manager, {
          companyId,
          actor,
          action: 'balance.topped_up',
          details: { amount: moneyToJson(amount), balance: moneyToJson(after), ...(reference === null ? {} : { reference }) },
        });
        return after;
      });
      return { amount, balance, reference };
    } catch (error) {
      if (error instanceof AlreadyAppliedError) throw new AlreadyRecordedError(`a top-up with the reference "${reference}" was already recorded`);
      throw error;
    }
  }

  /**
   * Suspends (true) or restores (false) a company: while suspended the public API refuses its keys
   * and its dashboard users change nothing. Audited only when it changes; NotFoundError for no company.
   */
  async setSuspended(companyId: string, suspended: boolean, actor: AuditActor): Promise<{ suspendedAt: Date | null }> {
    await this.requireCompany(companyId);
    return this.db.transaction(async (manager) => {
      const result = await this.companies.setSuspended(manager, companyId, suspended);
      if (!result) throw new NotFoundError(`no company ${companyId}`);
      if (result.changed) await this.audit.record(manager, { companyId, actor, action: suspended ? 'company.suspended' : 'company.unsuspended', details: {} });
      return { suspendedAt: result.suspendedAt };
    });
  }

  private async insertApplication(manager: EntityManager, companyId: string, name: string) {
    const appid = `app_${randomBytes(10).toString('hex')}`;
    return this.applications.insert(manager, { appid, companyId, name });
  }

  private async requireCompany(companyId: string): Promise<void> {
    if (!UUID.test(companyId) || !(await this.companies.findById(companyId))) {
      throw new NotFoundError(`no company ${companyId}`);
    }
  }

  private parseAmount(text: string, field: string, options: { allowZero: boolean }): Money {
    return invalidArgument(() => parseCreditAmount(text, field, options));
  }
}

function pick<T extends object>(source: T, keys: string[]): Partial<T> {
  return Object.fromEntries(Object.entries(source).filter(([key]) => keys.includes(key))) as Partial<T>;
}

/** A domain refusal of an operator's input, as the accounts lib reports it. */
function invalidArgument<T>(parse: () => T): T {
  try {
    return parse();
  } catch (error) {
    if (error instanceof TopUpError) throw new InvalidArgumentError(error.message);
    throw error;
  }
}
