import { parseIntegerSetting, SettingError } from './setting-error';

/** Company-wide settings operators change with `company:update --set key=value`. */
export interface CompanySettings {
  name: string;
  /** ISO 4217 code the balance and prices are in. */
  currency: string;
  /** OTP sends and resends per rolling minute for the whole company. */
  otp_rate_limit: number;
}

export const DEFAULT_CURRENCY = 'EUR';
export const DEFAULT_OTP_RATE_LIMIT = 20;

const parsers: { [K in keyof CompanySettings]: (text: string) => CompanySettings[K] } = {
  name: parseCompanyName,
  currency: parseCurrency,
  otp_rate_limit: (text) => parseIntegerSetting('otp_rate_limit', text, 1, 1_000_000),
};

export const COMPANY_SETTING_KEYS = Object.keys(parsers) as (keyof CompanySettings)[];

export function parseCompanyName(text: string): string {
  const name = text.trim();
  if (name.length < 1 || name.length > 200) throw new SettingError('name must be 1 to 200 characters');
  return name;
}

export function parseCurrency(text: string): string {
  const code = text.trim().toUpperCase();
  if (!/^[A-Z]{3}$/.test(code)) throw new SettingError('currency must be an ISO 4217 code such as EUR or USD');
  return code;
}

/** Validates `key=value` updates into a partial set of company settings. */
export function parseCompanySettingUpdates(updates: Record<string, string>): Partial<CompanySettings> {
  const result: Record<string, unknown> = {};
  for (const [key, text] of Object.entries(updates)) {
    if (!Object.prototype.hasOwnProperty.call(parsers, key)) {
      throw new SettingError(`unknown company setting "${key}" (known: ${COMPANY_SETTING_KEYS.join(', ')})`);
    }
    result[key] = parsers[key as keyof CompanySettings](text);
  }
  return result as Partial<CompanySettings>;
}
