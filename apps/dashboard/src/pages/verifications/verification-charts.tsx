// Sent and verified per day (bars), and the conversion rate per day (a line), drawn by recharts.
import { SimpleGrid } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { VerificationDay, VerificationStats } from '../../api/verifications';
import { ChartFigure } from '../../components/chart-figure';
import { formatDay, formatRate } from '../../components/chart-format';
import { verificationPoints, verificationSummary } from './verification-chart-data';

const SENT = 'var(--mantine-color-blue-7)';
const VERIFIED = 'var(--mantine-color-teal-8)';
const HEIGHT = 240;

function numbers(days: readonly VerificationDay[]) {
  return {
    columns: ['Day', 'Sent', 'Verified', 'Conversion'],
    rows: days.map((day) => [formatDay(day.day), day.sent, day.verified, formatRate(day.conversion_rate)]),
  };
}

export function VerificationCharts({ stats }: { stats: VerificationStats }) {
  const points = verificationPoints(stats.days);
  const summary = verificationSummary(stats.totals, stats.days);
  return (
    <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
      <ChartFigure title="Sent and verified per day" summary={summary} table={numbers(stats.days)}>
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <BarChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" minTickGap={16} fontSize={12} />
            <YAxis allowDecimals={false} fontSize={12} />
            <Tooltip />
            <Legend />
            <Bar dataKey="sent" name="Sent" fill={SENT} isAnimationActive={false} />
            <Bar dataKey="verified" name="Verified" fill={VERIFIED} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure
        title="Conversion rate per day"
        summary={`Conversion over the range: ${formatRate(stats.totals.conversion_rate)}`}
        table={numbers(stats.days)}
      >
        <ResponsiveContainer width="100%" height={HEIGHT}>
          <LineChart data={points} accessibilityLayer={false} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
            <CartesianGrid strokeDasharray="3 3" vertical={false} />
            <XAxis dataKey="label" minTickGap={16} fontSize={12} />
            <YAxis domain={[0, 100]} unit="%" fontSize={12} />
            <Tooltip formatter={(value) => `${String(value)}%`} />
            <Line dataKey="conversion" name="Conversion" stroke={VERIFIED} strokeWidth={2} dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </ChartFigure>
    </SimpleGrid>
  );
}
