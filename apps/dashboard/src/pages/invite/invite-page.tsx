import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { SessionAnswer } from '../../api/types';
import { InviteForm } from './invite-form';

export function InvitePage({ token, onAccepted }: { token: string; onAccepted: (session: SessionAnswer) => void }) {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={440}>
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              Join your team
            </Title>
            <Text c="dimmed" size="sm">
              You were invited to your company&apos;s console. Choose a password to finish; you sign in with it and the email address the invitation was sent
              for.
            </Text>
          </div>
          <InviteForm token={token} onAccepted={onAccepted} />
        </Stack>
      </Paper>
    </Center>
  );
}
