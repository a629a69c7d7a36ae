// The application form's fields as the reader types them, checked as the API checks them, and
// turned into the body it takes. The ranges are the accounts domain's (otp_validity_minutes 1–60,
// otp_prefix_limit_per_hour 1–1,000,000): the server refuses the same, this only says it sooner.
import type { Application, ApplicationBody } from '../../api/applications';

export interface ApplicationValues {
  name: string;
  otpValidityMinutes: number | string;
  /** ISO 3166 codes separated by commas or spaces; empty: every country. */
  allowedCountries: string;
  prefixLimitPerHour: number | string;
}

export const NEW_APPLICATION: ApplicationValues = { name: '', otpValidityMinutes: 10, allowedCountries: '', prefixLimitPerHour: 100 };

export function valuesOf(application: Application): ApplicationValues {
  return {
    name: application.name,
    otpValidityMinutes: application.otp_validity_minutes,
    allowedCountries: (application.allowed_countries ?? []).join(', '),
    prefixLimitPerHour: application.otp_prefix_limit_per_hour,
  };
}

export function countryCodes(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((code) => code.trim().toUpperCase())
    .filter((code) => code.length > 0);
}

function integerIn(value: number | string, min: number, max: number): boolean {
  const number = typeof value === 'number' ? value : Number(value.trim() === '' ? Number.NaN : value);
  return Number.isInteger(number) && number >= min && number <= max;
}

export const applicationRules = {
  name: (value: string) => (value.trim() === '' ? 'Name is required' : value.length > 200 ? 'Name is at most 200 characters' : null),
  otpValidityMinutes: (value: number | string) => (integerIn(value, 1, 60) ? null : 'OTP expiry is a whole number of minutes from 1 to 60'),
  allowedCountries: (value: string) => {
    const bad = countryCodes(value).find((code) => !/^[A-Z]{2}$/.test(code));
    return bad === undefined ? null : `“${bad}” is not a two-letter country code such as GB or FR`;
  },
  prefixLimitPerHour: (value: number | string) => (integerIn(value, 1, 1_000_000) ? null : 'Prefix limit is a whole number from 1 to 1,000,000'),
};

export function applicationBody(values: ApplicationValues): ApplicationBody {
  return {
    name: values.name.trim(),
    otp_validity_minutes: Number(values.otpValidityMinutes),
    allowed_countries: [...new Set(countryCodes(values.allowedCountries))],
    otp_prefix_limit_per_hour: Number(values.prefixLimitPerHour),
  };
}

/** One line of what the settings mean, for the list. */
export function settingsSummary(application: Application): string {
  const countries = application.allowed_countries === null ? 'every country' : application.allowed_countries.join(', ');
  return `OTPs valid ${application.otp_validity_minutes} min · ${countries} · ${application.otp_prefix_limit_per_hour} per number prefix an hour`;
}
