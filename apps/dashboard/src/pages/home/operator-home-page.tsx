import { Stack, Text, Title } from '@mantine/core';
import type { User } from '../../api/types';
import { OverviewSections } from '../operator/overview-sections';

/** An operator's first page: the platform at a glance (queue depths, SMSC binds, carriers' health). */
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
      <OverviewSections />
    </Stack>
  );
}
