import { Alert, Button, Code, Group, Modal, Stack, Text } from '@mantine/core';
import type { ApiKey } from '../../api/types';

export function RevokeKeyDialog({
  apiKey,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  apiKey: ApiKey | undefined;
  pending: boolean;
  error: string | undefined;
  onConfirm: (key: ApiKey) => void;
  onCancel: () => void;
}) {
  return (
    <Modal opened={apiKey !== undefined} onClose={onCancel} title="Revoke this API key?">
      {apiKey && (
        <Stack gap="md">
          <Text size="sm">
            Requests signed with <Code>{apiKey.api_key}</Code> will be refused within seconds. This cannot be undone: software that still uses the key stops
            working until it is given a new one.
          </Text>
          {error && (
            <Alert color="red" variant="light" role="alert" title="Not revoked">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
            <Button color="red" loading={pending} onClick={() => onConfirm(apiKey)}>
              Revoke
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
