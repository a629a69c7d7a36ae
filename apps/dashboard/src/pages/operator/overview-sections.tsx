import { Badge, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { overviewQuery, type QueueDepth, type SmscBind } from '../../api/operator';
import { formatDateTime } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { CarrierHealthSection } from './carrier-health-section';

const QUEUE_COLUMNS: Column<QueueDepth>[] = [
  { header: 'Queue', cell: (q) => q.queue, inCardTitle: true },
  { header: 'Waiting', cell: (q) => q.waiting, numeric: true },
  { header: 'Active', cell: (q) => q.active, numeric: true },
  { header: 'Delayed', cell: (q) => q.delayed, numeric: true },
  {
    header: 'Failed',
    cell: (q) =>
      q.failed > 0 ? (
        <Text c="red.8" fw={600} span>
          {q.failed}
        </Text>
      ) : (
        q.failed
      ),
    numeric: true,
  },
];

const BIND_COLUMNS: Column<SmscBind>[] = [
  { header: 'Route', cell: (b) => `${b.route} #${b.bind}`, inCardTitle: true },
  { header: 'SMSC', cell: (b) => b.smsc },
  { header: 'State', cell: (b) => <BindState state={b.state} /> },
  { header: 'Since', cell: (b) => formatDateTime(b.since) },
  { header: 'Dispatcher', cell: (b) => b.dispatcher },
];

function BindState({ state }: { state: SmscBind['state'] }) {
  return (
    <Badge color={state === 'bound' ? 'teal' : state === 'connecting' ? 'yellow' : 'red'} variant="light">
      {state}
    </Badge>
  );
}

/** The platform at a glance: every queue's depth and every SMSC bind, read again every 10 seconds. */
export function OverviewSections() {
  const api = useApi();
  const overview = useQuery(overviewQuery(api));
  if (overview.isPending) return <LoadingState label="Loading queues and binds…" />;
  if (overview.isError) return <ErrorState title="Queues and binds could not be loaded" error={overview.error} onRetry={() => void overview.refetch()} />;
  const { queues, binds, read_at } = overview.data;
  return (
    <Stack gap="xl">
      <Text size="sm" c="dimmed" role="status">
        Read {formatDateTime(read_at)}; refreshed every 10 seconds.
      </Text>
      <section aria-labelledby="queues-title">
        <Title order={2} size="h3" id="queues-title" mb="sm">
          Queue depths
        </Title>
        <ResponsiveTable caption="Jobs per queue and state" columns={QUEUE_COLUMNS} rows={queues} rowKey={(q) => q.queue} cardTitle={(q) => q.queue} />
      </section>
      <section aria-labelledby="binds-title">
        <Title order={2} size="h3" id="binds-title" mb="sm">
          SMSC binds
        </Title>
        {binds.length === 0 ? (
          <EmptyState
            title="No SMSC binds"
            description="No sms-dispatcher has reported its binds in the last 30 seconds: none is running, or none can reach Redis."
          />
        ) : (
          <ResponsiveTable
            caption="Binds of every running sms-dispatcher"
            columns={BIND_COLUMNS}
            rows={binds}
            rowKey={(b) => `${b.dispatcher} ${b.route} ${b.bind}`}
            cardTitle={(b) => `${b.route} #${b.bind}`}
          />
        )}
      </section>
      <CarrierHealthSection />
    </Stack>
  );
}
