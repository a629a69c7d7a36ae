import { Button, Card, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { deliveriesQuery, resendDelivery, webhookKeys, type WebhookDelivery } from '../../api/webhooks';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { DeliveryList } from './delivery-list';
import { SigningSecretSection } from './signing-secret-section';
import { DELIVERY_FILTERS, type DeliveryFilter } from './webhook-rules';

const EMPTY: Record<DeliveryFilter, { title: string; description: string }> = {
  all: { title: 'No webhooks yet', description: 'Send a message or an OTP with a webhook_url, and each event sent to it is listed here.' },
  pending: { title: 'Nothing is being retried', description: 'Webhooks whose receiver failed are listed here until they are delivered or given up.' },
  delivered: { title: 'No delivered webhooks', description: 'Webhooks your receivers answered with a 2xx are listed here.' },
  dead: {
    title: 'No dead letters',
    description: 'A webhook is given up after about 40 hours of failed attempts; it is listed here, and Resend tries it again.',
  },
};

function DeliveriesSection({ filter, onFilterChange }: { filter: DeliveryFilter; onFilterChange: (filter: DeliveryFilter) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const log = useInfiniteQuery(deliveriesQuery(api, filter === 'all' ? null : filter));
  const resend = useMutation({
    mutationFn: (delivery: WebhookDelivery) => resendDelivery(api, delivery.id),
    onSuccess: (answer, delivery) => {
      notifications.show({ color: 'green', title: 'Resent', message: `${delivery.event_type}: attempt ${answer.attempt} is on its way.` });
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Not resent', message: error.message }),
  });
  const deliveries = log.data?.pages.flatMap((page) => page.items) ?? [];
  // Four choices do not fit a phone's width side by side: there they are stacked.
  const wide = useMediaQuery('(min-width: 36em)', true, { getInitialValueInEffect: false });
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="deliveries-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="deliveries-title">
          Deliveries
        </Title>
        <SegmentedControl
          aria-label="Which deliveries to show"
          value={filter}
          onChange={(value) => onFilterChange(value as DeliveryFilter)}
          data={DELIVERY_FILTERS.map((choice) => ({ value: choice.value, label: choice.label }))}
          orientation={wide ? 'horizontal' : 'vertical'}
          fullWidth={!wide}
          style={wide ? { alignSelf: 'flex-start' } : undefined}
        />
        {log.isPending ? (
          <LoadingState label="Loading deliveries…" />
        ) : log.isError ? (
          <ErrorState title="The deliveries could not be loaded" error={log.error} onRetry={() => void log.refetch()} />
        ) : deliveries.length === 0 ? (
          <EmptyState {...EMPTY[filter]} />
        ) : (
          <>
            <DeliveryList deliveries={deliveries} resendingId={resend.isPending ? resend.variables?.id : undefined} onResend={(d) => resend.mutate(d)} />
            {log.hasNextPage ? (
              <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} style={{ alignSelf: 'center' }}>
                Load more
              </Button>
            ) : (
              <Text size="sm" c="dimmed" ta="center">
                {deliveries.length === 1 ? 'One delivery' : `All ${deliveries.length} deliveries`} shown.
              </Text>
            )}
          </>
        )}
      </Stack>
    </Card>
  );
}

export function WebhooksPage({
  mayManageSecret,
  filter,
  onFilterChange,
}: {
  mayManageSecret: boolean;
  filter: DeliveryFilter;
  onFilterChange: (filter: DeliveryFilter) => void;
}) {
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Webhooks
        </Title>
        <Text c="dimmed" size="sm">
          The events your receivers were sent, every attempt at each, and the secret that signs them.
        </Text>
      </div>
      <SigningSecretSection mayManage={mayManageSecret} />
      <DeliveriesSection filter={filter} onFilterChange={onFilterChange} />
    </Stack>
  );
}
