import { Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { balanceQuery, spendQuery } from '../../api/billing';
import { ErrorState, LoadingState } from '../../components/page-states';
import { BalanceCard } from './balance-card';
import { ButtonLink } from './links';
import type { LedgerFilter } from './ledger-filter';
import { LedgerSection } from './ledger-section';
import { SpendChart } from './spend-chart';

export function BillingPage({
  filter,
  onFilterChange,
  canChangeSettings,
}: {
  filter: LedgerFilter;
  onFilterChange: (filter: LedgerFilter) => void;
  /** Owners (billing.settings); a developer is not offered what the API would refuse. */
  canChangeSettings: boolean;
}) {
  const api = useApi();
  const balance = useQuery(balanceQuery(api));
  const spend = useQuery(spendQuery(api));
  const currency = balance.data?.currency ?? 'EUR';

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={1} size="h2">
            Billing
          </Title>
          <Text c="dimmed" size="sm">
            Your balance, what it was spent on, and every entry of the ledger.
          </Text>
        </div>
        {canChangeSettings && (
          <ButtonLink to="/billing/settings" variant="default">
            Billing settings
          </ButtonLink>
        )}
      </Group>
      {balance.isPending ? (
        <LoadingState label="Loading the balance…" />
      ) : balance.isError ? (
        <ErrorState title="The balance could not be loaded" error={balance.error} onRetry={() => void balance.refetch()} />
      ) : (
        <BalanceCard balance={balance.data} />
      )}
      {spend.isPending ? (
        <LoadingState label="Loading the spend per day…" />
      ) : spend.isError ? (
        <ErrorState title="The spend per day could not be loaded" error={spend.error} onRetry={() => void spend.refetch()} />
      ) : (
        <SpendChart spend={spend.data} currency={currency} />
      )}
      <LedgerSection filter={filter} onFilterChange={onFilterChange} currency={currency} />
    </Stack>
  );
}
