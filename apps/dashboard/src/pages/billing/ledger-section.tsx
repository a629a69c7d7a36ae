import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { ledgerCsvUrl, ledgerQuery } from '../../api/billing';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { isLedgerFiltered, ledgerQueryOf, type LedgerFilter } from './ledger-filter';
import { LedgerFilters } from './ledger-filters';
import { LedgerTable } from './ledger-table';

/** The ledger: its filters (in the URL), its entries a page at a time, and the same entries as a CSV download. */
export function LedgerSection({
  filter,
  onFilterChange,
  currency,
}: {
  filter: LedgerFilter;
  onFilterChange: (filter: LedgerFilter) => void;
  currency: string;
}) {
  const api = useApi();
  const query = ledgerQueryOf(filter);
  const ledger = useInfiniteQuery(ledgerQuery(api, query));
  const entries = ledger.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="ledger-title">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" wrap="wrap">
          <div>
            <Title order={2} size="h4" id="ledger-title">
              Ledger
            </Title>
            <Text c="dimmed" size="sm">
              Every change of your balance, newest first.
            </Text>
          </div>
          <Button component="a" href={ledgerCsvUrl(query)} download variant="default">
            Export CSV
          </Button>
        </Group>
        {/* Remounted when the URL's filter changes (back, Clear), so the form shows what is applied. */}
        <LedgerFilters key={JSON.stringify(filter)} filter={filter} onApply={onFilterChange} />
        {ledger.isPending ? (
          <LoadingState label="Loading the ledger…" />
        ) : !ledger.data ? (
          <ErrorState title="The ledger could not be loaded" error={ledger.error} onRetry={() => void ledger.refetch()} />
        ) : entries.length === 0 ? (
          isLedgerFiltered(filter) ? (
            <EmptyState
              title="No entry matches these filters"
              description="Try other kinds, a wider date range or another reference."
              action={
                <Button variant="default" onClick={() => onFilterChange({})}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState title="No ledger entries yet" description="Top-ups, charges and refunds are listed here as they happen." />
          )
        ) : (
          <Stack gap="md">
            <LedgerTable entries={entries} currency={currency} />
            {ledger.hasNextPage ? (
              <Button variant="default" onClick={() => void ledger.fetchNextPage()} loading={ledger.isFetchingNextPage} style={{ alignSelf: 'center' }}>
                Load more
              </Button>
            ) : (
              <Text c="dimmed" size="sm" ta="center">
                {entries.length === 1 ? 'One entry' : `All ${entries.length} entries`} shown.
              </Text>
            )}
            {ledger.isFetchNextPageError && (
              <ErrorState title="More entries could not be loaded" error={ledger.error} onRetry={() => void ledger.fetchNextPage()} />
            )}
          </Stack>
        )}
      </Stack>
    </section>
  );
}
