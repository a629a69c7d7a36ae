// Money and the spend chart's points as the billing page shows them.
import type { SpendDay } from '../../api/billing';
import { formatDay, formatDayLabel } from '../../components/chart-format';

/**
 * 12.5 EUR → "€12.50", -0.0137 → "-€0.0137": the reader's locale, 2 to 4 decimals. The API's
 * amounts have at most 4 decimals, so a double holds them exactly and none is rounded away.
 */
export function formatMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 }).format(amount);
  } catch {
    return `${amount.toFixed(4)} ${currency}`;
  }
}

export interface SpendPoint {
  day: string;
  label: string;
  spent: number;
}

export function spendPoints(days: readonly SpendDay[]): SpendPoint[] {
  return days.map((day) => ({ day: day.day, label: formatDayLabel(day.day), spent: day.spent }));
}

/** The range's spend, summed in ten-thousandths (integers add exactly), back as an amount. */
export function totalSpent(days: readonly SpendDay[]): number {
  return days.reduce((sum, day) => sum + Math.round(day.spent * 10_000), 0) / 10_000;
}

/** "€0.04 spent from 28 Oct 2026 to 26 Nov 2026": the chart in words. */
export function spendSummary(days: readonly SpendDay[], currency: string): string {
  if (days.length === 0) return 'Nothing spent';
  return `${formatMoney(totalSpent(days), currency)} spent from ${formatDay(days[0].day)} to ${formatDay(days[days.length - 1].day)}`;
}

const AMOUNT = /^\d{1,16}(\.\d{1,4})?$/;

/** What is wrong with a threshold typed in the settings form; null when it can be saved. Empty: none. */
export function thresholdError(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (trimmed.startsWith('-')) return 'Enter zero or more';
  if (!AMOUNT.test(trimmed)) return 'Enter an amount such as 25 or 7.50, with at most 4 decimals';
  return null;
}

/** The threshold as the API takes it: decimal text, or null for none. */
export function thresholdValue(text: string): string | null {
  const trimmed = text.trim();
  return trimmed === '' ? null : trimmed;
}
