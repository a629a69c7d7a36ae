import { Alert, Stack, Text, Title } from '@mantine/core';
import type { User } from '../../api/types';

/** What an operator sees until the operator pages (companies, prices) are built. */
export function OperatorHomePage({ user }: { user: User }) {
  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Overview
        </Title>
        <Text c="dimmed" size="sm">
          Signed in as {user.email}, an operator of the platform.
        </Text>
      </div>
      <Alert color="blue" variant="light" title="Operator pages">
        The companies and price pages of the console are not available yet. Until then, operators manage companies, balances and prices with the admin tool (
        <code>npm run admin</code>).
      </Alert>
    </Stack>
  );
}
