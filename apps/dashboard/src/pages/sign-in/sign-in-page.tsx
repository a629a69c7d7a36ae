import { Alert, Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { SessionAnswer } from '../../api/types';
import { SignInForm } from './sign-in-form';

export function SignInPage({ sessionEnded, onSignedIn }: { sessionEnded: boolean; onSignedIn: (session: SessionAnswer) => void }) {
  return (
    <Center mih="100dvh" p="md" component="main">
      <Paper withBorder shadow="sm" p="xl" radius="md" w="100%" maw={420}>
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              Sign in
            </Title>
            <Text c="dimmed" size="sm">
              to the console of your messaging platform
            </Text>
          </div>
          {sessionEnded && (
            <Alert color="blue" variant="light" title="Signed out">
              Your session has ended. Sign in again to continue where you were.
            </Alert>
          )}
          <SignInForm onSignedIn={onSignedIn} />
        </Stack>
      </Paper>
    </Center>
  );
}
