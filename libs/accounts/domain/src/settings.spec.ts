import {
  DEFAULT_APPLICATION_SETTINGS,
  parseAssignments,
  parseCompanySettingUpdates,
  resolveApplicationSettings,
  SettingError,
  updateApplicationSettings,
} from './index';

describe('application settings', () => {
  it('applies typed updates', () => {
    const next = updateApplicationSettings(DEFAULT_APPLICATION_SETTINGS, {
      otp_validity_minutes: '15',
      timezone: 'Europe/Paris',
      webhook_url: 'https://example.com/hook',
      allowed_countries: 'gb, fr,GB',
    });
    expect(next).toEqual({
      ...DEFAULT_APPLICATION_SETTINGS,
      otp_validity_minutes: 15,
      timezone: 'Europe/Paris',
      webhook_url: 'https://example.com/hook',
      allowed_countries: ['GB', 'FR'],
    });
  });

  it.each([
    [{ colour: 'blue' }, /unknown application setting "colour"/],
    [{ otp_validity_minutes: '0' }, /otp_validity_minutes must be a whole number from 1 to 60/],
    [{ otp_validity_minutes: '61' }, /otp_validity_minutes/],
    [{ otp_validity_minutes: '1.5' }, /otp_validity_minutes/],
    [{ timezone: 'Mars/Olympus' }, /timezone/],
    [{ webhook_url: 'ftp://x' }, /webhook_url/],
    [{ allowed_countries: 'GBR' }, /allowed_countries/],
  ])('refuses %p naming the setting', (updates, message) => {
    expect(() => updateApplicationSettings(DEFAULT_APPLICATION_SETTINGS, updates)).toThrow(SettingError);
    expect(() => updateApplicationSettings(DEFAULT_APPLICATION_SETTINGS, updates)).toThrow(message);
  });

  it('fills settings added after a row was stored with their defaults', () => {
    expect(resolveApplicationSettings({ timezone: 'Asia/Tokyo' })).toEqual({
      ...DEFAULT_APPLICATION_SETTINGS,
      timezone: 'Asia/Tokyo',
    });
  });
});

describe('company settings', () => {
  it('parses currency and rate limit', () => {
    expect(parseCompanySettingUpdates({ currency: 'usd', otp_rate_limit: '100' })).toEqual({
      currency: 'USD',
      otp_rate_limit: 100,
    });
  });

  const refused: Record<string, string>[] = [{ currency: 'EURO' }, { otp_rate_limit: '-1' }, { plan: 'gold' }, { name: '' }];
  it.each(refused)('refuses %p', (updates) => {
    expect(() => parseCompanySettingUpdates(updates)).toThrow(SettingError);
  });
});

describe('parseAssignments', () => {
  it('splits on the first equals sign', () => {
    expect(parseAssignments(['a=1', 'url=https://x/?q=1'])).toEqual({ a: '1', url: 'https://x/?q=1' });
  });
  it('refuses a bare word', () => {
    expect(() => parseAssignments(['oops'])).toThrow(/key=value/);
  });
});
