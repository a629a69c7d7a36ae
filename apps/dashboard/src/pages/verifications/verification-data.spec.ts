import type { VerificationDay, VerificationRow } from '../../api/verifications';
import { anySent, byChannelAndCountry, verificationPoints, verificationSummary } from './verification-chart-data';
import { isVerificationFiltered, parseVerificationFilter, verificationStatsQueryOf } from './verification-filter';

const counts = { median_seconds: null, p95_seconds: null };
const day = (date: string, sent: number, verified: number): VerificationDay => ({
  day: date,
  sent,
  verified,
  conversion_rate: sent === 0 ? 0 : Math.round((verified / sent) * 10_000) / 10_000,
  ...counts,
});
const row = (date: string, channel: 'sms' | 'whatsapp', country: string | null, sent: number, verified: number): VerificationRow => ({
  ...day(date, sent, verified),
  channel,
  country,
});

describe('the verifications filter in the URL', () => {
  it('reads what a URL holds, dropping what cannot be read', () => {
    expect(parseVerificationFilter({ from: '2026-11-01', to: '2026-11-20', channel: 'whatsapp', country: 'de' })).toEqual({
      from: '2026-11-01',
      to: '2026-11-20',
      channel: 'whatsapp',
      country: 'DE',
    });
    expect(parseVerificationFilter({ from: '2026-02-30', to: 'soon', channel: 'fax', country: 'DEU', page: 2 })).toEqual({});
    expect(parseVerificationFilter({ from: '2026-11-20', to: '2026-11-01' })).toEqual({ from: '2026-11-20' });
  });

  it('asks the API for the same filter, and knows when there is one', () => {
    expect(verificationStatsQueryOf({ channel: 'sms', country: 'FR' })).toEqual({ channel: 'sms', country: 'FR' });
    expect(isVerificationFiltered({})).toBe(false);
    expect(isVerificationFiltered({ to: '2026-11-01' })).toBe(true);
  });
});

describe('the verification charts data', () => {
  it('plots each day with its conversion as a percentage', () => {
    const points = verificationPoints([day('2026-11-25', 0, 0), day('2026-11-26', 3, 1)]);
    expect(points.map(({ day, sent, verified, conversion }) => ({ day, sent, verified, conversion }))).toEqual([
      { day: '2026-11-25', sent: 0, verified: 0, conversion: 0 },
      { day: '2026-11-26', sent: 3, verified: 1, conversion: 33.3 },
    ]);
    expect(points[1].label).toMatch(/26/);
    expect(anySent([day('2026-11-25', 0, 0)])).toBe(false);
    expect(anySent([day('2026-11-25', 0, 0), day('2026-11-26', 1, 0)])).toBe(true);
  });

  it('sums the days per channel and country, most sent first, with the conversion of the sums', () => {
    const rows = [
      row('2026-11-25', 'sms', 'FR', 1, 0),
      row('2026-11-25', 'sms', 'DE', 2, 1),
      row('2026-11-26', 'sms', 'DE', 2, 2),
      row('2026-11-26', 'whatsapp', null, 1, 1),
    ];
    expect(byChannelAndCountry(rows)).toEqual([
      { channel: 'sms', country: 'DE', sent: 4, verified: 3, conversionRate: 0.75 },
      { channel: 'sms', country: 'FR', sent: 1, verified: 0, conversionRate: 0 },
      { channel: 'whatsapp', country: null, sent: 1, verified: 1, conversionRate: 1 },
    ]);
  });

  it('says the totals in words', () => {
    const summary = verificationSummary({ sent: 4, verified: 1, conversion_rate: 0.25, ...counts }, [day('2026-10-28', 0, 0), day('2026-11-26', 4, 1)]);
    expect(summary).toMatch(/^4 sent, 1 verified \(25%\) from .*2026 to .*2026$/);
  });
});
