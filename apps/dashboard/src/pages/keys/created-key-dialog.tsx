import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { CreatedKey } from '../../api/types';
import { CopyField } from '../../components/copy-field';

/** The one moment a key's secret is shown. */
export function CreatedKeyDialog({ created, onClose }: { created: CreatedKey | undefined; onClose: () => void }) {
  return (
    <Modal opened={created !== undefined} onClose={onClose} title="Your new API key" size="lg" closeOnClickOutside={false}>
      {created && (
        <Stack gap="md">
          <Alert color="orange" variant="light" title="Copy the secret now" role="note">
            <Text size="sm">
              This is the only time the secret is shown. It is stored only as a hash, so nobody can show it again; if you lose it, create a new key and revoke
              this one.
            </Text>
          </Alert>
          <CopyField label="API key" value={created.api_key} description="Sent as X-API-Key, or as the user name of Basic authentication" />
          <CopyField label="API secret" value={created.api_secret} description="Sent as X-API-Secret, or as the password of Basic authentication" />
          <Group justify="flex-end">
            <Button onClick={onClose}>I have stored the secret</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
