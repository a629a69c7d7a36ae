import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Spend } from '../../api/billing';
import { ChartFigure } from '../../components/chart-figure';
import { formatDay } from '../../components/chart-format';
import { formatMoney, spendPoints, spendSummary } from './billing-format';

/** Charges less refunds per UTC day over the last 30 days. */
export function SpendChart({ spend, currency }: { spend: Spend; currency: string }) {
  const table = {
    columns: ['Day', 'Charged', 'Refunded', 'Spent'],
    rows: spend.days.map((day) => [
      formatDay(day.day),
      formatMoney(day.charged, currency),
      formatMoney(day.refunded, currency),
      formatMoney(day.spent, currency),
    ]),
  };
  return (
    <ChartFigure title="Spend per day" summary={`${spendSummary(spend.days, currency)} (charges less refunds, per UTC day)`} table={table}>
      <ResponsiveContainer width="100%" height={220}>
        <BarChart data={spendPoints(spend.days)} accessibilityLayer={false} margin={{ top: 8, right: 8, left: 0, bottom: 0 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} />
          <XAxis dataKey="label" minTickGap={16} fontSize={12} />
          <YAxis fontSize={12} width={56} />
          <Tooltip formatter={(value) => formatMoney(Number(value), currency)} />
          <Bar dataKey="spent" name="Spent" fill="var(--mantine-color-blue-7)" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </ChartFigure>
  );
}
