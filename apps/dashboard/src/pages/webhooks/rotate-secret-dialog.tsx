import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { DEFAULT_OVERLAP, OVERLAP_CHOICES, overlapConsequence } from './webhook-rules';

/** The confirmation of a rotation: how long the old secret keeps signing, and what that means. */
export function RotateSecretDialog({
  opened,
  pending,
  error,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  pending: boolean;
  error: string | undefined;
  onConfirm: (overlapSeconds: number) => void;
  onCancel: () => void;
}) {
  const [overlap, setOverlap] = useState(DEFAULT_OVERLAP);
  return (
    <Modal opened={opened} onClose={onCancel} title="Rotate the signing secret?">
      <Stack gap="md">
        <Text size="sm">A new secret signs every webhook from now on. Give it to your receivers, then they can stop accepting the old one.</Text>
        <Radio.Group label="Keep the old secret signing for" value={String(overlap)} onChange={(value) => setOverlap(Number(value))}>
          <Stack gap="xs" mt="xs">
            {OVERLAP_CHOICES.map((choice) => (
              <Radio key={choice.value} value={String(choice.value)} label={choice.label} />
            ))}
          </Stack>
        </Radio.Group>
        <Text size="sm" data-testid="overlap-consequence">
          {overlapConsequence(overlap)}
        </Text>
        {error && (
          <Alert color="red" variant="light" role="alert" title="Not rotated">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button color="red" loading={pending} onClick={() => onConfirm(overlap)}>
            Rotate secret
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
