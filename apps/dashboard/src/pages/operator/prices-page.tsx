import { Alert, Anchor, Button, Card, Group, Modal, NativeSelect, Stack, Text, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { operatorApi, operatorKeys, PRICE_ROUTES, PRICES_CSV_URL, pricesQuery, type Price, type PriceRouteName } from '../../api/operator';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { PriceForm, type PriceChange } from './price-form';
import { PriceImport } from './price-import';

export type PriceRouteFilter = PriceRouteName | 'all';

export function parsePriceRouteFilter(value: unknown): PriceRouteFilter {
  return (PRICE_ROUTES as readonly unknown[]).includes(value) ? (value as PriceRouteName) : 'all';
}

/** The price table: edit a price, add one, export the table as CSV and import one back. */
export function PricesPage({ route, onRouteChange }: { route: PriceRouteFilter; onRouteChange: (route: PriceRouteFilter) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const prices = useQuery(pricesQuery(api));
  const [editing, setEditing] = useState<Price | null | undefined>(undefined);

  const save = useMutation({
    mutationFn: (change: PriceChange) => operatorApi.setPrice(api, change),
    onSuccess: (price) => {
      setEditing(undefined);
      notifications.show({ color: 'green', title: 'Price saved', message: `${price.prefix} ${price.route}: ${price.price.toFixed(4)}` });
      void queryClient.invalidateQueries({ queryKey: operatorKeys.prices });
    },
  });
  const importing = useMutation({
    mutationFn: (csv: string) => operatorApi.importPrices(api, csv),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: operatorKeys.prices }),
  });

  const columns: Column<Price>[] = [
    { header: 'Prefix', cell: (p) => (p.prefix === '+' ? '+ (every number)' : p.prefix), inCardTitle: true },
    { header: 'Route', cell: (p) => p.route },
    { header: 'Price', cell: (p) => p.price.toFixed(4), numeric: true },
    {
      header: 'Actions',
      cell: (p) => (
        <Button size="xs" variant="default" onClick={() => (save.reset(), setEditing(p))}>
          Edit
          <VisuallyHidden>
            {' '}
            price of {p.prefix} {p.route}
          </VisuallyHidden>
        </Button>
      ),
    },
  ];
  const shown = (prices.data ?? []).filter((price) => route === 'all' || price.route === route);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Prices
          </Title>
          <Text c="dimmed" size="sm">
            What a part costs by destination prefix and route. A change applies to messages sent from a few seconds later.
          </Text>
        </div>
        <Group gap="sm">
          <Anchor href={PRICES_CSV_URL} download="prices.csv" size="sm">
            Export CSV
          </Anchor>
          <Button onClick={() => (save.reset(), setEditing(null))}>Add price</Button>
        </Group>
      </Group>
      <Card withBorder padding="md">
        <PriceImport
          pending={importing.isPending}
          result={importing.data?.imported}
          error={importing.isError ? importing.error.message : undefined}
          onImport={(csv) => importing.mutate(csv)}
        />
      </Card>
      <NativeSelect
        label="Route"
        value={route}
        onChange={(event) => onRouteChange(parsePriceRouteFilter(event.currentTarget.value))}
        data={[{ value: 'all', label: 'All routes' }, ...PRICE_ROUTES.map((value) => ({ value, label: value }))]}
        style={{ alignSelf: 'flex-start', minWidth: '12rem' }}
      />
      {prices.isPending ? (
        <LoadingState label="Loading prices…" />
      ) : prices.isError ? (
        <ErrorState title="The prices could not be loaded" error={prices.error} onRetry={() => void prices.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState title="No prices" description={route === 'all' ? 'Add price sets the first one, or import a CSV.' : 'No price is set for this route.'} />
      ) : (
        <ResponsiveTable
          caption={`${shown.length} prices`}
          columns={columns}
          rows={shown}
          rowKey={(p) => `${p.prefix} ${p.route}`}
          cardTitle={(p) => `${columns[0].cell(p)} · ${p.route}`}
        />
      )}
      <Modal
        opened={editing !== undefined}
        onClose={() => setEditing(undefined)}
        title={editing ? `Edit price of ${editing.prefix} ${editing.route}` : 'Add price'}
      >
        {save.isError && (
          <Alert color="red" variant="light" role="alert" title="Not saved" mb="sm">
            {save.error.message}
          </Alert>
        )}
        {editing !== undefined && (
          <PriceForm editing={editing} pending={save.isPending} onSubmit={(change) => save.mutate(change)} onCancel={() => setEditing(undefined)} />
        )}
      </Modal>
    </Stack>
  );
}
