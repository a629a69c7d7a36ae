import { DEFAULT_APPLICATION_SETTINGS } from '@mp/accounts-domain';
import type { OtpJournal, OtpSubject } from '@mp/otp';
import type { SlidingWindowLimiter } from '@mp/rate-limit';
import { refusal } from '../testing/api-refusal';
import { OtpFraudGuard, type FraudCheck } from './otp-fraud-guard.service';
import type { OtpRateLimiter } from './otp-rate-limiter.service';

const hourly = { name: 'otp-prefix' } as unknown as SlidingWindowLimiter;

function guard() {
  const windows: [string, number][] = [];
  const recorded: [OtpSubject, string, Record<string, unknown>][] = [];
  const limiter = { window: (name: string, windowMs: number) => (windows.push([name, windowMs]), hourly) } as unknown as OtpRateLimiter;
  const journal = {
    recordEvent: async (subject: OtpSubject, event: string, _at: Date, detail: Record<string, unknown>) => void recorded.push([subject, event, detail]),
  } as unknown as OtpJournal;
  return { fraud: new OtpFraudGuard(limiter, journal), windows, recorded };
}

const check = (allowed: string[] | null, country: string | null = 'GB'): FraudCheck => ({
  companyId: 'company-1',
  application: { id: 'application-1', settings: { ...DEFAULT_APPLICATION_SETTINGS, allowed_countries: allowed, otp_prefix_limit_per_hour: 7 } },
  recipient: '+447911123456',
  country,
});

describe('OtpFraudGuard', () => {
  it("admits a destination the application allows, with the hourly window of the number's prefix", async () => {
    const { fraud, windows, recorded } = guard();
    expect(await fraud.admit(check(null))).toEqual({ limiter: hourly, key: 'application-1:+44791112', limit: 7 });
    expect(await fraud.admit(check(['GB', 'FR']))).toMatchObject({ key: 'application-1:+44791112' });
    expect(windows).toEqual([['otp-prefix', 3_600_000]]);
    expect(recorded).toEqual([]);
  });

  it('refuses (403) a country the application does not allow, or a number of no known country, and logs why', async () => {
    const { fraud, recorded } = guard();
    expect(await refusal(fraud.admit(check(['FR'])))).toEqual({ status: 403, body: { error: 'Destination country GB is not allowed for this application' } });
    expect(await refusal(fraud.admit(check(['FR'], null)))).toMatchObject({
      status: 403,
      body: { error: 'Destination country unknown is not allowed for this application' },
    });
    const subject = { otpId: null, companyId: 'company-1', applicationId: 'application-1', recipient: '+447911123456' };
    expect(recorded).toEqual([
      [subject, 'refused', { reason: 'country', country: 'GB' }],
      [subject, 'refused', { reason: 'country', country: null }],
    ]);
  });

  it('makes the 429 of a full prefix window, with Retry-After, and logs it', async () => {
    const { fraud, recorded } = guard();
    const error = await fraud.prefixRefusal(check(null), 7, 1_200);
    expect(await refusal(Promise.reject(error))).toEqual({
      status: 429,
      body: { error: 'Too many OTPs to numbers starting +44791112 this hour; try again in 2 seconds', retry_after: 2 },
    });
    expect(recorded).toEqual([
      [expect.objectContaining({ recipient: '+447911123456' }), 'refused', { reason: 'prefix-velocity', prefix: '+44791112', limit: 7 }],
    ]);
  });
});
