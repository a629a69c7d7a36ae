import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';

/** Asks before something that cannot be undone; the confirming button says what it does. */
export function ConfirmDialog({
  title,
  body,
  confirmLabel,
  opened,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  title: string;
  body: string;
  confirmLabel: string;
  opened: boolean;
  pending: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={title}>
      <Stack gap="md">
        <Text size="sm">{body}</Text>
        {error && (
          <Alert color="red" variant="light" role="alert" title="Not done">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Keep it
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
