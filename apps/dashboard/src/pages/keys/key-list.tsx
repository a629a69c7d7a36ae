// The keys as a table on a wide screen and as cards on a phone.
import { Badge, Button, Card, Code, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ApiKey } from '../../api/types';
import { formatDateTime } from '../../components/format';

function KeyStatus({ apiKey }: { apiKey: ApiKey }) {
  return apiKey.revoked_at === null ? (
    <Badge color="green" variant="light">
      Active
    </Badge>
  ) : (
    <Badge color="gray" variant="light">
      Revoked
    </Badge>
  );
}

function When({ iso, fallback }: { iso: string | null; fallback?: string }) {
  return iso ? (
    <time dateTime={iso} title={iso}>
      {formatDateTime(iso)}
    </time>
  ) : (
    <Text span c="dimmed" size="sm">
      {fallback ?? '—'}
    </Text>
  );
}

function RevokeButton({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: (key: ApiKey) => void }) {
  if (apiKey.revoked_at !== null) return null;
  return (
    <Button size="xs" variant="outline" color="red" onClick={() => onRevoke(apiKey)} aria-describedby={`key-${apiKey.id}`}>
      Revoke
    </Button>
  );
}

export function KeyList({ keys, onRevoke }: { keys: readonly ApiKey[]; onRevoke: (key: ApiKey) => void }) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  if (!wide) {
    return (
      <Stack gap="sm">
        {keys.map((key) => (
          <Card key={key.id} withBorder padding="md" component="article" aria-labelledby={`key-${key.id}`}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Code id={`key-${key.id}`} style={{ wordBreak: 'break-all' }}>
                {key.api_key}
              </Code>
              <KeyStatus apiKey={key} />
            </Group>
            <Text size="sm" mt="xs">
              Created <When iso={key.created_at} />
            </Text>
            <Text size="sm">
              Last used <When iso={key.last_used_at} fallback="never" />
            </Text>
            {key.revoked_at && (
              <Text size="sm">
                Revoked <When iso={key.revoked_at} />
              </Text>
            )}
            <Group justify="flex-end" mt="sm">
              <RevokeButton apiKey={key} onRevoke={onRevoke} />
            </Group>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped highlightOnHover verticalSpacing="sm">
      <Table.Caption>API keys of your company, newest first</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">Key</Table.Th>
          <Table.Th scope="col">Created</Table.Th>
          <Table.Th scope="col">Last used</Table.Th>
          <Table.Th scope="col">Status</Table.Th>
          <Table.Th scope="col">
            <VisuallyHidden>Actions</VisuallyHidden>
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {keys.map((key) => (
          <Table.Tr key={key.id}>
            <Table.Td>
              <Code id={`key-${key.id}`}>{key.api_key}</Code>
            </Table.Td>
            <Table.Td>
              <When iso={key.created_at} />
            </Table.Td>
            <Table.Td>
              <When iso={key.last_used_at} fallback="Never" />
            </Table.Td>
            <Table.Td>
              <Stack gap={2} align="flex-start">
                <KeyStatus apiKey={key} />
                {key.revoked_at && (
                  <Text size="xs" c="dimmed">
                    <When iso={key.revoked_at} />
                  </Text>
                )}
              </Stack>
            </Table.Td>
            <Table.Td ta="right">
              <RevokeButton apiKey={key} onRevoke={onRevoke} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
