import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { verificationStatsQuery } from '../../api/verifications';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { BlocksList } from './blocks-list';
import { ChannelCountryTable } from './channel-country-table';
import { anySent } from './verification-chart-data';
import { verificationStatsQueryOf, type VerificationFilter } from './verification-filter';
import { VerificationFilters } from './verification-filters';
import { VerificationCharts } from './verification-charts';
import { VerificationSummary } from './verification-summary';

export function VerificationsPage({ filter, onFilterChange }: { filter: VerificationFilter; onFilterChange: (filter: VerificationFilter) => void }) {
  const api = useApi();
  const stats = useQuery(verificationStatsQuery(api, verificationStatsQueryOf(filter)));

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Verifications
        </Title>
        <Text c="dimmed" size="sm">
          One-time passwords sent and verified per day (UTC), the last 30 days unless you choose dates.
        </Text>
      </div>
      {/* Remounted when the URL's filter changes (back, Clear), so the form shows what is applied. */}
      <VerificationFilters key={JSON.stringify(filter)} filter={filter} onApply={onFilterChange} />
      {stats.isPending ? (
        <LoadingState label="Loading verification statistics…" />
      ) : stats.isError ? (
        <ErrorState title="The statistics could not be loaded" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <Stack gap="lg">
          <VerificationSummary totals={stats.data.totals} />
          {anySent(stats.data.days) ? (
            <>
              <VerificationCharts stats={stats.data} />
              <ChannelCountryTable rows={stats.data.rows} />
            </>
          ) : (
            <EmptyState
              title="No one-time passwords in this range"
              description="Codes your software sends with POST /otp/send are counted here, on the day they were sent."
            />
          )}
        </Stack>
      )}
      <BlocksList />
    </Stack>
  );
}
