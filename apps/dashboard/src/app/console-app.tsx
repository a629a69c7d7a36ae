import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { ApiProvider } from '../api/api-context';
import type { Console } from './create-console';
import { cssVariablesResolver, theme } from './theme';

export function ConsoleApp({ console: app }: { console: Console }) {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <Notifications position="top-right" />
      <QueryClientProvider client={app.queryClient}>
        <ApiProvider client={app.api}>
          <RouterProvider router={app.router} />
        </ApiProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
