// The signing secret: hidden until an owner reveals it (each reveal is in the audit log), copied,
// or rotated after a confirmation that says how long the old one keeps signing.
import { Alert, Button, Card, Code, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { revealSecret, rotateSecret, type WebhookSecret } from '../../api/webhooks';
import { CopyField } from '../../components/copy-field';
import { formatDateTime } from '../../components/format';
import { RotateSecretDialog } from './rotate-secret-dialog';

function SecretFacts({ secret }: { secret: WebhookSecret }) {
  return (
    <Text size="sm" c="dimmed">
      {secret.rotated_at ? `Made by a rotation on ${formatDateTime(secret.rotated_at)}.` : 'The secret your company was created with.'}{' '}
      {secret.previous_expires_at && `The secret it replaced also signs until ${formatDateTime(secret.previous_expires_at)}.`}
    </Text>
  );
}

export function SigningSecretSection({ mayManage }: { mayManage: boolean }) {
  const api = useApi();
  const [shown, setShown] = useState<WebhookSecret>();
  const [rotating, setRotating] = useState(false);
  const reveal = useMutation({ mutationFn: () => revealSecret(api), onSuccess: setShown });
  const rotate = useMutation({
    mutationFn: (overlapSeconds: number) => rotateSecret(api, overlapSeconds),
    onSuccess: (rotated) => {
      setShown(rotated);
      setRotating(false);
      notifications.show({ color: 'green', title: 'Secret rotated', message: 'The new secret is shown: give it to your receivers.' });
    },
  });

  return (
    <Card withBorder padding="md" component="section" aria-labelledby="signing-secret-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="signing-secret-title">
          Signing secret
        </Title>
        <Text size="sm">
          Every webhook is signed per Standard Webhooks with this secret: check the <Code>webhook-signature</Code> header with it before trusting a request.
        </Text>
        {!mayManage ? (
          <Text size="sm" c="dimmed">
            Only your company’s owners can reveal or rotate the signing secret.
          </Text>
        ) : (
          <>
            {shown ? (
              <>
                <CopyField label="Signing secret" value={shown.secret} />
                <SecretFacts secret={shown} />
              </>
            ) : (
              <Text size="sm" ff="monospace" aria-label="Signing secret, hidden">
                whsec_••••••••••••••••
              </Text>
            )}
            {reveal.isError && (
              <Alert color="red" variant="light" role="alert" title="The secret could not be revealed">
                {reveal.error.message}
              </Alert>
            )}
            <Group gap="sm">
              {shown ? (
                <Button variant="default" onClick={() => setShown(undefined)}>
                  Hide
                </Button>
              ) : (
                <Button variant="light" loading={reveal.isPending} onClick={() => reveal.mutate()}>
                  Reveal
                </Button>
              )}
              <Button variant="outline" color="red" onClick={() => (rotate.reset(), setRotating(true))}>
                Rotate secret
              </Button>
            </Group>
          </>
        )}
      </Stack>
      <RotateSecretDialog
        opened={rotating}
        pending={rotate.isPending}
        error={rotate.isError ? rotate.error.message : undefined}
        onConfirm={(overlap) => rotate.mutate(overlap)}
        onCancel={() => setRotating(false)}
      />
    </Card>
  );
}
