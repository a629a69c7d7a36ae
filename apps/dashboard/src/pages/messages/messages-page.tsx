import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { messageLogQuery } from '../../api/messages';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { isFiltered, messageLogQueryOf, type MessageFilter } from './message-filter';
import { MessageFilters } from './message-filters';
import { MessageList } from './message-list';
import { TestMessageDialog } from './test-message-dialog';

export function MessagesPage({ filter, onFilterChange }: { filter: MessageFilter; onFilterChange: (filter: MessageFilter) => void }) {
  const api = useApi();
  const log = useInfiniteQuery(messageLogQuery(api, messageLogQueryOf(filter)));
  const [testing, setTesting] = useState(false);
  const messages = log.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Messages
          </Title>
          <Text c="dimmed" size="sm">
            Every SMS your company sent, newest first. One-time passwords are under Verifications.
          </Text>
        </div>
        <Button onClick={() => setTesting(true)}>Send a test message</Button>
      </Group>
      {/* Remounted when the URL's filter changes (back, Clear), so the form shows what is applied. */}
      <MessageFilters key={JSON.stringify(filter)} filter={filter} onApply={onFilterChange} />
      {log.isPending ? (
        <LoadingState label="Loading messages…" />
      ) : !log.data ? (
        <ErrorState title="The messages could not be loaded" error={log.error} onRetry={() => void log.refetch()} />
      ) : messages.length === 0 ? (
        isFiltered(filter) ? (
          <EmptyState
            title="No message matches these filters"
            description="Try another number, a wider date range or fewer statuses."
            action={
              <Button variant="default" onClick={() => onFilterChange({})}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            title="No messages yet"
            description="Messages your software sends with an API key appear here. Send a test message to see one."
            action={<Button onClick={() => setTesting(true)}>Send a test message</Button>}
          />
        )
      ) : (
        <Stack gap="md">
          <MessageList messages={messages} />
          {log.hasNextPage ? (
            <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} style={{ alignSelf: 'center' }}>
              Load more
            </Button>
          ) : (
            <Text c="dimmed" size="sm" ta="center">
              {messages.length === 1 ? 'One message' : `All ${messages.length} messages`} shown.
            </Text>
          )}
          {log.isFetchNextPageError && <ErrorState title="More messages could not be loaded" error={log.error} onRetry={() => void log.fetchNextPage()} />}
        </Stack>
      )}
      <TestMessageDialog opened={testing} onClose={() => setTesting(false)} onSent={() => setTesting(false)} />
    </Stack>
  );
}
