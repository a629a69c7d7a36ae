import { Badge, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { carriersQuery, type OperatorCarrier } from '../../api/operator';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ResponsiveTable, type Column } from '../../components/responsive-table';

const percent = (rate: number | null | undefined) => (rate === null || rate === undefined ? '—' : `${(rate * 100).toFixed(1)} %`);

const COLUMNS: Column<OperatorCarrier>[] = [
  { header: 'Carrier', cell: (c) => c.name, inCardTitle: true },
  { header: 'Bound', cell: (c) => c.bound, numeric: true },
  { header: 'Binds each', cell: (c) => c.binds, numeric: true },
  { header: 'Submits/s', cell: (c) => c.health?.submits_per_second ?? '—', numeric: true },
  { header: 'Throttled', cell: (c) => percent(c.health?.throttled_rate), numeric: true },
  { header: 'Errors', cell: (c) => percent(c.health?.error_rate), numeric: true },
  { header: 'Delivered', cell: (c) => percent(c.health?.delivered_share), numeric: true },
  {
    header: 'Receipt latency',
    cell: (c) => (c.health?.mean_receipt_latency_ms == null ? '—' : `${(c.health.mean_receipt_latency_ms / 1000).toFixed(1)} s`),
    numeric: true,
  },
  { header: 'State', cell: (c) => <CarrierState carrier={c} /> },
];

function CarrierState({ carrier }: { carrier: OperatorCarrier }) {
  if (!carrier.enabled)
    return (
      <Badge color="gray" variant="light">
        disabled
      </Badge>
    );
  const health = carrier.health;
  if (health?.degraded)
    return (
      <Badge color="red" variant="light">
        degraded ({health.degraded_by} of {health.dispatchers})
      </Badge>
    );
  if (carrier.bound === 0)
    return (
      <Badge color="red" variant="light">
        not bound
      </Badge>
    );
  return (
    <Badge color="teal" variant="light">
      {health && health.submits > 0 ? 'delivering' : 'idle'}
    </Badge>
  );
}

/** Every carrier with its binds and its health over the last five minutes, read again every 10 seconds. */
export function CarrierHealthSection() {
  const api = useApi();
  const carriers = useQuery(carriersQuery(api));
  return (
    <section aria-labelledby="carriers-title">
      <Title order={2} size="h3" id="carriers-title" mb="sm">
        Carriers
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        Over the last five minutes, summed over the running sms-dispatchers. A degraded carrier gets probe traffic only.
      </Text>
      {carriers.isPending ? (
        <LoadingState label="Loading carriers…" />
      ) : carriers.isError ? (
        <ErrorState title="Carriers could not be loaded" error={carriers.error} onRetry={() => void carriers.refetch()} />
      ) : carriers.data.length === 0 ? (
        <EmptyState title="No carriers" description="Add one with admin carrier:create; a dispatcher creates the default one from SMSC_* at its first start." />
      ) : (
        <ResponsiveTable caption="Carriers and their health" columns={COLUMNS} rows={carriers.data} rowKey={(c) => c.name} cardTitle={(c) => c.name} />
      )}
    </section>
  );
}
