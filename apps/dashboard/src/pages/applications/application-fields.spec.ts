import type { Application } from '../../api/applications';
import { applicationBody, applicationRules, countryCodes, settingsSummary, valuesOf } from './application-fields';

const shop: Application = {
  appid: 'app_0123456789abcdef0123',
  name: 'Shop',
  otp_validity_minutes: 5,
  allowed_countries: ['GB', 'FR'],
  otp_prefix_limit_per_hour: 20,
  timezone: 'UTC',
  created_at: '2026-11-26T10:00:00Z',
};

describe('application fields', () => {
  it('turns the form into the body the API takes: codes upper-cased and once, numbers as numbers, none for every country', () => {
    expect(applicationBody({ name: ' Shop ', otpValidityMinutes: '5', allowedCountries: 'gb, fr;GB  de', prefixLimitPerHour: 20 })).toEqual({
      name: 'Shop',
      otp_validity_minutes: 5,
      allowed_countries: ['GB', 'FR', 'DE'],
      otp_prefix_limit_per_hour: 20,
    });
    expect(applicationBody({ ...valuesOf(shop), allowedCountries: '' }).allowed_countries).toEqual([]);
    expect(countryCodes(' , ')).toEqual([]);
  });

  it('reads an application back into the form', () => {
    expect(valuesOf(shop)).toEqual({ name: 'Shop', otpValidityMinutes: 5, allowedCountries: 'GB, FR', prefixLimitPerHour: 20 });
    expect(valuesOf({ ...shop, allowed_countries: null }).allowedCountries).toBe('');
  });

  it('refuses what the API refuses, in words', () => {
    expect(applicationRules.name('  ')).toBe('Name is required');
    expect(applicationRules.otpValidityMinutes(61)).toMatch(/1 to 60/);
    expect(applicationRules.otpValidityMinutes('2.5')).toMatch(/whole number/);
    expect(applicationRules.otpValidityMinutes('')).toMatch(/whole number/);
    expect(applicationRules.otpValidityMinutes(60)).toBeNull();
    expect(applicationRules.allowedCountries('GB, FRA')).toBe('“FRA” is not a two-letter country code such as GB or FR');
    expect(applicationRules.allowedCountries('')).toBeNull();
    expect(applicationRules.prefixLimitPerHour(0)).toMatch(/1 to 1,000,000/);
  });

  it('sums the settings up in one line', () => {
    expect(settingsSummary(shop)).toBe('OTPs valid 5 min · GB, FR · 20 per number prefix an hour');
    expect(settingsSummary({ ...shop, allowed_countries: null })).toContain('every country');
  });
});
