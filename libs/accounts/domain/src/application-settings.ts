import { parseIntegerSetting, SettingError } from './setting-error';

/** Per-application settings operators change with `app:update --set key=value`. */
export interface ApplicationSettings {
  /** How long an OTP stays valid unless a send says otherwise (1 to 60). */
  otp_validity_minutes: number;
  /** IANA time zone for the times rendered into OTP templates. */
  timezone: string;
  /** Where OTP events of this application are posted; null for none. */
  webhook_url: string | null;
  /** ISO 3166 alpha-2 codes OTPs may be sent to; null lets every country through. */
  allowed_countries: string[] | null;
  /** OTP sends per hour to one number prefix (the number without its last four digits). */
  otp_prefix_limit_per_hour: number;
}

export const DEFAULT_APPLICATION_SETTINGS: Readonly<ApplicationSettings> = Object.freeze({
  otp_validity_minutes: 10,
  timezone: 'UTC',
  webhook_url: null,
  allowed_countries: null,
  otp_prefix_limit_per_hour: 100,
});

type Parser<K extends keyof ApplicationSettings> = (text: string) => ApplicationSettings[K];

const parsers: { [K in keyof ApplicationSettings]: Parser<K> } = {
  otp_validity_minutes: (text) => parseIntegerSetting('otp_validity_minutes', text, 1, 60),
  timezone: parseTimeZone,
  webhook_url: (text) => (text === '' || text === 'null' ? null : parseWebhookUrl(text)),
  allowed_countries: parseCountries,
  otp_prefix_limit_per_hour: (text) => parseIntegerSetting('otp_prefix_limit_per_hour', text, 1, 1_000_000),
};

export const APPLICATION_SETTING_KEYS = Object.keys(parsers) as (keyof ApplicationSettings)[];

function isSettingKey(key: string): key is keyof ApplicationSettings {
  return Object.prototype.hasOwnProperty.call(parsers, key);
}

/** Stored settings completed with the defaults of settings added since they were written. */
export function resolveApplicationSettings(stored: Partial<ApplicationSettings> | null | undefined): ApplicationSettings {
  return { ...DEFAULT_APPLICATION_SETTINGS, ...(stored ?? {}) };
}

/** Applies `key=value` updates, refusing unknown keys and bad values before anything changes. */
export function updateApplicationSettings(current: ApplicationSettings, updates: Record<string, string>): ApplicationSettings {
  const next: Record<string, unknown> = { ...current };
  for (const [key, text] of Object.entries(updates)) {
    if (!isSettingKey(key)) {
      throw new SettingError(`unknown application setting "${key}" (known: ${APPLICATION_SETTING_KEYS.join(', ')})`);
    }
    next[key] = parsers[key](text);
  }
  return next as unknown as ApplicationSettings;
}

function parseTimeZone(text: string): string {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    throw new SettingError(`timezone "${text}" is not an IANA time zone such as Europe/Paris`);
  }
}

function parseWebhookUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new SettingError('webhook_url must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SettingError('webhook_url must be an http(s) URL');
  return url.toString();
}

function parseCountries(text: string): string[] | null {
  if (text === '' || text === '*' || text === 'null') return null;
  const codes = text.split(',').map((code) => code.trim().toUpperCase());
  const bad = codes.find((code) => !/^[A-Z]{2}$/.test(code));
  if (bad !== undefined) throw new SettingError(`allowed_countries must be ISO 3166 codes like GB,FR (bad: "${bad}")`);
  return [...new Set(codes)];
}
