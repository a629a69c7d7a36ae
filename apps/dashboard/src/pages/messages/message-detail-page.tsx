import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/client';
import { messageDetailQuery, type MessageDetail, type MessagePart } from '../../api/messages';
import { FactsTable } from '../../components/facts-table';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { RouterAnchor } from '../../components/router-anchor';
import { formatAmount, formatToTheSecond } from './message-format';
import { MessageHistory } from './message-history';
import { MessageStatusBadge } from './message-status-badge';

function When({ iso }: { iso: string | null }) {
  return iso ? (
    <time dateTime={iso} title={iso}>
      {formatToTheSecond(iso)}
    </time>
  ) : (
    <>—</>
  );
}

function facts(message: MessageDetail): [string, ReactNode][] {
  return [
    ['To', message.to],
    ['From', message.from],
    ['Status', <MessageStatusBadge key="status" status={message.status} />],
    [
      'Message ID',
      <Text key="id" ff="monospace" size="sm" style={{ wordBreak: 'break-all' }}>
        {message.message_id}
      </Text>,
    ],
    ['Reference', message.reference ?? '—'],
    [
      'Campaign',
      message.campaign_id ? (
        <RouterAnchor key="campaign" to="/campaigns/$campaignId" params={{ campaignId: message.campaign_id }} ff="monospace" style={{ wordBreak: 'break-all' }}>
          {message.campaign_id}
        </RouterAnchor>
      ) : (
        '—'
      ),
    ],
    ['Parts', `${message.parts} (${message.encoding})`],
    ['Route', message.route],
    ['Cost', formatAmount(message.cost)],
    ['Refunded', formatAmount(message.refunded)],
    ['Created', <When key="created" iso={message.created_at} />],
    ['Scheduled for', <When key="scheduled" iso={message.scheduled_time} />],
    ['Sent', <When key="sent" iso={message.sent_at} />],
    ['Completed', <When key="completed" iso={message.completed_at} />],
    ...(message.error_code || message.error_reason
      ? [['Error', [message.error_code, message.error_reason].filter(Boolean).join(': ')] as [string, ReactNode]]
      : []),
  ];
}

function PartCard({ part }: { part: MessagePart }) {
  return (
    <Card withBorder padding="sm" component="article" aria-label={`Part ${part.index}`}>
      <Group justify="space-between" wrap="nowrap">
        <Text fw={600} size="sm">
          Part {part.index}
        </Text>
        <MessageStatusBadge status={part.status} />
      </Group>
      <Text size="sm">Carrier id: {part.carrier_message_id ?? '—'}</Text>
      <Text size="sm">Receipt: {part.receipt_stat ?? '—'}</Text>
      {part.error_code && <Text size="sm">Error: {part.error_code}</Text>}
      <Text size="sm">
        Submitted <When iso={part.submitted_at} />
      </Text>
      <Text size="sm">
        Completed <When iso={part.completed_at} />
      </Text>
    </Card>
  );
}

export function MessageDetailPage({ messageId }: { messageId: string }) {
  const api = useApi();
  const message = useQuery(messageDetailQuery(api, messageId));
  const back = (
    <RouterAnchor to="/messages" size="sm">
      ← All messages
    </RouterAnchor>
  );
  if (message.isPending) return <LoadingState label="Loading the message…" />;
  if (message.isError) {
    if (message.error instanceof ApiError && message.error.status === 404) {
      return <EmptyState title="Message not found" description="No message of your company has this ID." action={back} />;
    }
    return <ErrorState title="The message could not be loaded" error={message.error} onRetry={() => void message.refetch()} />;
  }
  const detail = message.data;
  return (
    <Stack gap="lg">
      <div>
        {back}
        <Group gap="sm" align="center" mt="xs">
          <Title order={1} size="h2" style={{ wordBreak: 'break-all' }}>
            Message to {detail.to}
          </Title>
          <MessageStatusBadge status={detail.status} />
        </Group>
      </div>
      <Card withBorder padding="md">
        <Text size="sm" fw={600} mb={4}>
          Text
        </Text>
        <Text style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{detail.message}</Text>
      </Card>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <section aria-labelledby="message-facts">
          <Title order={2} size="h4" id="message-facts" mb="xs">
            Details
          </Title>
          <FactsTable rows={facts(detail)} />
        </section>
        <section aria-labelledby="message-history">
          <Title order={2} size="h4" id="message-history" mb="xs">
            History
          </Title>
          <MessageHistory events={detail.history} />
        </section>
      </SimpleGrid>
      <section aria-labelledby="message-parts">
        <Title order={2} size="h4" id="message-parts" mb="xs">
          Parts
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
          {detail.part_details.map((part) => (
            <PartCard key={part.index} part={part} />
          ))}
        </SimpleGrid>
      </section>
    </Stack>
  );
}
