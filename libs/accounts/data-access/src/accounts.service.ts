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
import { LedgerRepository } from '@mp/billing';
import { Money, moneyToJson, parseMoney } from '@mp/billing-domain';
import { randomBytes } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { ApiKeyRepository } from './api-key.repository';
import { ApplicationRepository } from './application.repository';
import { CompanyRepository } from './company.repository';
import { InvalidArgumentError, NotFoundError } from './errors';

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
}

/** AccountsService's repositories on this data source, for a caller that wires it by hand (the admin tool, tests). */
export function accountsRepositories(db: DataSource): AccountsRepositories {
  return {
    companies: new CompanyRepository(db),
    applications: new ApplicationRepository(db),
    keys: new ApiKeyRepository(db),
    ledger: new LedgerRepository(db),
  };
}

/**
 * Operator-side account management: companies, applications, keys and top-ups. Used by the
 * admin tool now and by the dashboard later; never reachable through the public API.
 */
export class AccountsService {
  private readonly companies: CompanyRepository;
  private readonly applications: ApplicationRepository;
  private readonly keys: ApiKeyRepository;
  private readonly ledger: LedgerRepository;

  constructor(
    private readonly db: DataSource,
    repositories: AccountsRepositories,
    private readonly apiKeyPepper: string,
  ) {
    ({ companies: this.companies, applications: this.applications, keys: this.keys, ledger: this.ledger } = repositories);
  }

  /** A company with its balance, a first application, an API key pair and a webhook secret. */
  async createCompany(input: { name: string; balance: string; currency?: string }): Promise<CreatedCompany> {
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
      await this.keys.insert(manager, { companyId: company.id, key: apiKey.key, secretHash: apiKey.secretHash });
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

  async updateCompany(companyId: string, updates: Record<string, string>) {
    const settings = parseCompanySettingUpdates(updates);
    await this.requireCompany(companyId);
    const company = await this.companies.update(companyId, settings);
    if (!company) throw new NotFoundError(`no company ${companyId}`);
    return {
      company_id: company.id,
      name: company.name,
      currency: company.currency,
      otp_rate_limit: company.otpRateLimit,
    };
  }

  async createApplication(companyId: string, name: string): Promise<{ appid: string; app_name: string }> {
    await this.requireCompany(companyId);
    const appName = parseCompanyName(name);
    try {
      const application = await this.db.transaction((manager) => this.insertApplication(manager, companyId, appName));
      return { appid: application.appid, app_name: application.name };
    } catch (error) {
      if ((error as { code?: string }).code === '23505') {
        throw new InvalidArgumentError(`the company already has an application named "${appName}"`);
      }
      throw error;
    }
  }

  async updateApplication(appid: string, updates: Record<string, string>): Promise<{ appid: string; app_name: string; settings: ApplicationSettings }> {
    const application = await this.applications.findByAppid(appid);
    if (!application) throw new NotFoundError(`no application ${appid}`);
    const settings = updateApplicationSettings(resolveApplicationSettings(application.settings), updates);
    const changed = { ...application.settings, ...pick(settings, Object.keys(updates)) };
    await this.applications.saveSettings(application.id, changed);
    return { appid, app_name: application.name, settings };
  }

  async createKey(companyId: string): Promise<{ api_key: string; api_secret: string }> {
    await this.requireCompany(companyId);
    const apiKey = generateApiKey(this.apiKeyPepper);
    await this.keys.insert(this.db.manager, { companyId, key: apiKey.key, secretHash: apiKey.secretHash });
    return { api_key: apiKey.key, api_secret: apiKey.secret };
  }

  async revokeKey(key: string): Promise<{ revoked: true }> {
    if (!(await this.keys.revoke(key))) throw new NotFoundError(`no active API key ${key}`);
    return { revoked: true };
  }

  async topUp(companyId: string, amount: string): Promise<{ balance: number }> {
    await this.requireCompany(companyId);
    const units = this.parseAmount(amount, 'amount', { allowZero: false });
    const balance = await this.ledger.apply({ companyId, kind: 'topup', amount: units, description: 'operator top-up' });
    return { balance: moneyToJson(balance) };
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

  private parseAmount(text: string, field: string, { allowZero }: { allowZero: boolean }): Money {
    let amount: Money;
    try {
      amount = parseMoney(text);
    } catch {
      throw new InvalidArgumentError(`${field} must be a decimal with at most 4 decimals, e.g. 10 or 0.035`);
    }
    if (amount < 0n || (!allowZero && amount === 0n)) {
      throw new InvalidArgumentError(`${field} must be ${allowZero ? 'zero or more' : 'more than zero'}`);
    }
    return amount;
  }
}

function pick<T extends object>(source: T, keys: string[]): Partial<T> {
  return Object.fromEntries(Object.entries(source).filter(([key]) => keys.includes(key))) as Partial<T>;
}
