import { Alert, AppShell, Badge, Burger, Button, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure, useReducedMotion } from '@mantine/hooks';
import type { ReactNode } from 'react';
import type { User } from '../api/types';
import { navItemsFor } from './nav';
import { RouterNavLink } from './nav-link';

const ROLE_LABELS = { owner: 'Owner', developer: 'Developer', operator: 'Operator' } as const;

function Account({ user, onSignOutEverywhere }: { user: User; onSignOutEverywhere: () => void }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <UnstyledButton aria-label={`Account: ${user.email}`} px="xs" py={4} style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
          <Stack gap={0} align="flex-end">
            <Text size="sm" fw={500} truncate maw={220}>
              {user.email}
            </Text>
            <Text size="xs" c="dimmed" truncate maw={220}>
              {user.company?.name ?? 'Platform'} · {ROLE_LABELS[user.role]}
            </Text>
          </Stack>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item onClick={onSignOutEverywhere}>Sign out everywhere</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function AppLayout({
  user,
  onSignOut,
  onSignOutEverywhere,
  children,
}: {
  user: User;
  onSignOut: () => void;
  onSignOutEverywhere: () => void;
  children: ReactNode;
}) {
  const [opened, { toggle, close }] = useDisclosure(false);
  // The navigation slides in and out (and the page with it) unless the reader asked for less motion.
  const reducedMotion = useReducedMotion();
  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
      transitionDuration={reducedMotion ? 0 : 200}
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
            />
            <Text fw={700} size="lg">
              Console
            </Text>
            {user.company && (
              <Badge variant="light" color="gray" visibleFrom="xs" tt="none">
                {user.company.name}
              </Badge>
            )}
          </Group>
          <Group gap="xs" wrap="nowrap">
            <Group visibleFrom="sm">
              <Account user={user} onSignOutEverywhere={onSignOutEverywhere} />
            </Group>
            <Button variant="default" size="sm" onClick={onSignOut}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="sm" aria-label="Main">
        <AppShell.Section grow component="nav" aria-label="Pages">
          {navItemsFor(user.role).map((item) => (
            <RouterNavLink
              key={item.to}
              to={item.to}
              label={item.label}
              onClick={close}
              activeOptions={{ exact: item.to === '/' }}
              activeProps={{ 'data-active': true }}
            />
          ))}
        </AppShell.Section>
        <AppShell.Section hiddenFrom="sm" pt="sm" style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
          <Text size="sm" fw={500}>
            {user.email}
          </Text>
          <Text size="xs" c="dimmed">
            {user.company?.name ?? 'Platform'} · {ROLE_LABELS[user.role]}
          </Text>
          <Button variant="subtle" size="xs" px={0} mt="xs" onClick={onSignOutEverywhere}>
            Sign out everywhere
          </Button>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {user.company?.suspended && (
          <Alert color="red" variant="light" title="Your company is suspended" role="status" mb="md">
            You can read everything, but nothing can be changed and your API keys are refused until the platform operator lifts the suspension.
          </Alert>
        )}
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
