// The range's totals: sent, verified, conversion, and the time from send to verify.
import { Paper, SimpleGrid, Text } from '@mantine/core';
import type { VerificationCounts } from '../../api/verifications';
import { formatRate, formatSeconds } from '../../components/chart-format';

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder p="sm" component="div" role="group" aria-label={label}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

export function VerificationSummary({ totals }: { totals: VerificationCounts }) {
  return (
    <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }} spacing="sm">
      <Figure label="Sent" value={String(totals.sent)} />
      <Figure label="Verified" value={String(totals.verified)} />
      <Figure label="Conversion" value={formatRate(totals.conversion_rate)} />
      <Figure label="Median time to verify" value={formatSeconds(totals.median_seconds)} hint="from send to verify" />
      <Figure label="95th percentile" value={formatSeconds(totals.p95_seconds)} hint="95% verified within" />
    </SimpleGrid>
  );
}
