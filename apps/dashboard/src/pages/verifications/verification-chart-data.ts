// The verification stats shaped for the charts and the table: points per day, and the days'
// counts summed per channel and country.
import type { OtpChannel, VerificationCounts, VerificationDay, VerificationRow } from '../../api/verifications';
import { formatDay, formatDayLabel, formatRate } from '../../components/chart-format';

export interface VerificationPoint {
  day: string;
  label: string;
  sent: number;
  verified: number;
  /** Percent, one decimal: what the conversion line plots. */
  conversion: number;
}

export interface ChannelCountryRow {
  channel: OtpChannel;
  country: string | null;
  sent: number;
  verified: number;
  conversionRate: number;
}

export function verificationPoints(days: readonly VerificationDay[]): VerificationPoint[] {
  return days.map((day) => ({
    day: day.day,
    label: formatDayLabel(day.day),
    sent: day.sent,
    verified: day.verified,
    conversion: Math.round(day.conversion_rate * 1000) / 10,
  }));
}

/**
 * The per-day rows summed per channel and country over the range, most sent first. Only counts
 * add up: a median of the range is not a sum of the days' medians, so times are the totals' alone.
 */
export function byChannelAndCountry(rows: readonly VerificationRow[]): ChannelCountryRow[] {
  const sums = new Map<string, ChannelCountryRow>();
  for (const row of rows) {
    const key = `${row.channel}|${row.country ?? ''}`;
    const sum = sums.get(key) ?? { channel: row.channel, country: row.country, sent: 0, verified: 0, conversionRate: 0 };
    sum.sent += row.sent;
    sum.verified += row.verified;
    sums.set(key, sum);
  }
  return [...sums.values()]
    .map((sum) => ({ ...sum, conversionRate: sum.sent === 0 ? 0 : Math.round((sum.verified / sum.sent) * 10_000) / 10_000 }))
    .sort((a, b) => b.sent - a.sent || a.channel.localeCompare(b.channel) || (a.country ?? '~').localeCompare(b.country ?? '~'));
}

/** "4 sent, 1 verified (25%) from 28 Oct 2026 to 26 Nov 2026": the charts in words. */
export function verificationSummary(totals: VerificationCounts, days: readonly VerificationDay[]): string {
  const range = days.length === 0 ? '' : ` from ${formatDay(days[0].day)} to ${formatDay(days[days.length - 1].day)}`;
  return `${totals.sent} sent, ${totals.verified} verified (${formatRate(totals.conversion_rate)})${range}`;
}

/** Whether anything was sent in the range: without it the charts are a flat line. */
export const anySent = (days: readonly VerificationDay[]) => days.some((day) => day.sent > 0);
