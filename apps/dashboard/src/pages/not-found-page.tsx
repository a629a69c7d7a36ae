import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';

export function NotFoundPage() {
  return (
    <Center mih="60dvh" p="md" component="main">
      <Stack align="center" gap="sm">
        <Title order={1} size="h2">
          Page not found
        </Title>
        <Text c="dimmed">This address is not a page of the console.</Text>
        <Button component={Link} to="/">
          Go to the console
        </Button>
      </Stack>
    </Center>
  );
}
