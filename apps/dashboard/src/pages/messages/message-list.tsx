// The log's rows: a table on a wide screen, cards on a phone. Each opens the message's page.
import { Card, Group, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { MessageLogItem } from '../../api/messages';
import { formatDateTime } from '../../components/format';
import { RouterAnchor } from '../../components/router-anchor';
import { formatAmount } from './message-format';
import { MessageStatusBadge } from './message-status-badge';

function Destination({ message }: { message: MessageLogItem }) {
  return (
    <RouterAnchor
      to="/messages/$messageId"
      params={{ messageId: message.message_id }}
      ff="monospace"
      aria-label={`Message to ${message.to}, ${message.status}`}
    >
      {message.to}
    </RouterAnchor>
  );
}

function Created({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  );
}

export function MessageList({ messages }: { messages: readonly MessageLogItem[] }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  if (!wide) {
    return (
      <Stack gap="sm">
        {messages.map((message) => (
          <Card key={message.message_id} withBorder padding="sm" component="article">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Destination message={message} />
              <MessageStatusBadge status={message.status} />
            </Group>
            <Text size="sm" mt={4}>
              <Created iso={message.created_at} /> · {message.parts} {message.parts === 1 ? 'part' : 'parts'} · {formatAmount(message.cost)}
            </Text>
            {message.reference && (
              <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
                Reference {message.reference}
              </Text>
            )}
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped highlightOnHover verticalSpacing="xs">
      <Table.Caption>Messages, newest first</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">To</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">From</Table.Th>
          <Table.Th scope="col" ta="right">
            Parts
          </Table.Th>
          <Table.Th scope="col" ta="right">
            Cost
          </Table.Th>
          <Table.Th scope="col">Reference</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {messages.map((message) => (
          <Table.Tr key={message.message_id}>
            <Table.Td>
              <Destination message={message} />
            </Table.Td>
            <Table.Td>
              <MessageStatusBadge status={message.status} />
            </Table.Td>
            <Table.Td>
              <Created iso={message.created_at} />
            </Table.Td>
            <Table.Td>{message.from}</Table.Td>
            <Table.Td ta="right">{message.parts}</Table.Td>
            <Table.Td ta="right">{formatAmount(message.cost)}</Table.Td>
            <Table.Td style={{ wordBreak: 'break-all' }}>{message.reference ?? '—'}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
