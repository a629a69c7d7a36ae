import { Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { dashboardApi, keysQuery, queryKeys } from '../../api/queries';
import type { ApiKey, CreatedKey } from '../../api/types';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { CreatedKeyDialog } from './created-key-dialog';
import { filterKeys, type KeyFilter } from './key-filter';
import { KeyList } from './key-list';
import { RevokeKeyDialog } from './revoke-key-dialog';

const FILTER_LABELS: Record<KeyFilter, string> = { active: 'Active', revoked: 'Revoked', all: 'All' };
const EMPTY_TEXT: Record<KeyFilter, { title: string; description: string }> = {
  active: { title: 'No active API keys', description: 'Create key makes one for your software to call the messaging API with.' },
  revoked: { title: 'No revoked API keys', description: 'Keys you revoke are listed here.' },
  all: { title: 'No API keys yet', description: 'Create key makes one for your software to call the messaging API with.' },
};

export function KeysPage({ filter, onFilterChange }: { filter: KeyFilter; onFilterChange: (filter: KeyFilter) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const keys = useQuery(keysQuery(api));
  const [created, setCreated] = useState<CreatedKey>();
  const [revoking, setRevoking] = useState<ApiKey>();

  const create = useMutation({
    mutationFn: () => dashboardApi.createKey(api),
    onSuccess: (key) => {
      setCreated(key);
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'No key was created', message: error.message }),
  });
  const revoke = useMutation({
    mutationFn: (key: ApiKey) => dashboardApi.revokeKey(api, key.id),
    onSuccess: (_answer, key) => {
      setRevoking(undefined);
      notifications.show({ color: 'green', title: 'Key revoked', message: `${key.api_key} is refused from now on.` });
      void queryClient.invalidateQueries({ queryKey: queryKeys.keys });
    },
  });

  const createButton = (
    <Button onClick={() => create.mutate()} loading={create.isPending}>
      Create key
    </Button>
  );
  const shown = keys.data ? filterKeys(keys.data.items, filter) : [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            API keys
          </Title>
          <Text c="dimmed" size="sm">
            Your software authenticates to the messaging API with a key and its secret.
          </Text>
        </div>
        {createButton}
      </Group>
      <SegmentedControl
        aria-label="Which keys to show"
        value={filter}
        onChange={(value) => onFilterChange(value as KeyFilter)}
        data={(Object.keys(FILTER_LABELS) as KeyFilter[]).map((value) => ({ value, label: FILTER_LABELS[value] }))}
        style={{ alignSelf: 'flex-start' }}
      />
      {keys.isPending ? (
        <LoadingState label="Loading API keys…" />
      ) : keys.isError ? (
        <ErrorState title="The API keys could not be loaded" error={keys.error} onRetry={() => void keys.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState {...EMPTY_TEXT[filter]} />
      ) : (
        <KeyList keys={shown} onRevoke={(key) => (revoke.reset(), setRevoking(key))} />
      )}
      <CreatedKeyDialog created={created} onClose={() => setCreated(undefined)} />
      <RevokeKeyDialog
        apiKey={revoking}
        pending={revoke.isPending}
        error={revoke.isError ? revoke.error.message : undefined}
        onConfirm={(key) => revoke.mutate(key)}
        onCancel={() => setRevoking(undefined)}
      />
    </Stack>
  );
}
