import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';

/** Cancel asks first: it cannot be undone, and batches already started are still sent. */
export function CancelCampaignDialog({
  opened,
  pending,
  error,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  pending: boolean;
  error: string | undefined;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title="Cancel this campaign?">
      <Stack gap="md">
        <Text size="sm">
          Every batch not yet started is cancelled and exactly its cost refunded to your balance. Batches already started are sent as usual. This cannot be
          undone.
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert" title="Not cancelled">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={pending}>
            Keep it
          </Button>
          <Button color="red" loading={pending} onClick={onConfirm}>
            Cancel campaign
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
