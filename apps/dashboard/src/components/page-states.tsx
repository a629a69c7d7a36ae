// The three states every page shows besides its content: loading, failed (with a way to try
// again), and empty (with the next step).
import { Alert, Button, Center, EmptyState as MantineEmptyState, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function LoadingState({ label }: { label: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Stack align="center" gap="xs">
        <Loader size="md" aria-hidden="true" />
        <Text c="dimmed">{label}</Text>
      </Stack>
    </Center>
  );
}

export function ErrorState({ title, error, onRetry }: { title: string; error: unknown; onRetry?: () => void }) {
  return (
    <Alert color="red" variant="light" title={title} role="alert">
      <Stack gap="sm" align="flex-start">
        <Text size="sm">{error instanceof Error ? error.message : 'Something went wrong.'}</Text>
        {onRetry && (
          <Button variant="default" size="xs" onClick={onRetry}>
            Try again
          </Button>
        )}
      </Stack>
    </Alert>
  );
}

export function EmptyState({ title, description, action }: { title: string; description: ReactNode; action?: ReactNode }) {
  return (
    <MantineEmptyState py="xl" title={title} description={description}>
      {action && <MantineEmptyState.Actions>{action}</MantineEmptyState.Actions>}
    </MantineEmptyState>
  );
}
