// Everything the console runs on, made once: the API client, the query cache and the router,
// tied together so that a 401 anywhere ends the session and leads to sign-in and back.
import { QueryClient } from '@tanstack/react-query';
import type { RouterHistory } from '@tanstack/react-router';
import { ApiClient, ApiError } from '../api/client';
import { endSession } from '../api/queries';
import { safeRedirectTarget } from './redirect-target';
import { createAppRouter, type AppRouter } from './router';

export interface ConsoleOptions {
  fetch?: typeof fetch;
  history?: RouterHistory;
}

export interface Console {
  api: ApiClient;
  queryClient: QueryClient;
  router: AppRouter;
}

/** Failures worth a second try: no answer, or the server's own trouble; never a refusal. */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= 2) return false;
  return !(error instanceof ApiError) || error.status === 0 || error.status >= 500;
}

export function createConsole(options: ConsoleOptions = {}): Console {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 10_000, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
  // eslint-disable-next-line prefer-const -- the client's handler needs the router made after it
  let router: AppRouter;
  const api = new ApiClient({
    baseUrl: '/dashboard/api',
    fetch: options.fetch,
    onUnauthorized: () => {
      endSession(api, queryClient);
      const here = router.state.location;
      if (here.pathname === '/sign-in' || here.pathname.startsWith('/invite/')) return;
      void router.navigate({ to: '/sign-in', search: { redirect: safeRedirectTarget(here.href), ended: true }, replace: true });
    },
  });
  router = createAppRouter({ queryClient, api }, options.history);
  return { api, queryClient, router };
}
