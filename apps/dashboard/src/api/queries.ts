// The console's server state, kept by TanStack Query: one query key per resource, the session's
// CSRF token handed to the client whenever a session answer arrives.
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { ApiError, type ApiClient } from './client';
import type { CreatedInvitation, CreatedKey, KeyList, MemberList, RevokedKey, SessionAnswer } from './types';

export const queryKeys = {
  session: ['session'] as const,
  keys: ['keys'] as const,
  members: ['members'] as const,
};

/** The current session, or null when there is none (GET /session answers a null user; a 401 is taken the same way). */
export function sessionQuery(api: ApiClient) {
  return queryOptions({
    queryKey: queryKeys.session,
    queryFn: async (): Promise<SessionAnswer | null> => {
      try {
        const session = await api.get<Partial<SessionAnswer> | undefined>('/session', { needsSession: false });
        if (!session?.user || typeof session.csrf_token !== 'string') {
          api.setCsrfToken(undefined);
          return null;
        }
        api.setCsrfToken(session.csrf_token);
        return session as SessionAnswer;
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          api.setCsrfToken(undefined);
          return null;
        }
        throw error;
      }
    },
    staleTime: 60_000,
  });
}

/** Keeps a session answer (sign-in, an accepted invitation) as the current session. */
export function startSession(api: ApiClient, queryClient: QueryClient, session: SessionAnswer): void {
  api.setCsrfToken(session.csrf_token);
  // Whatever a previous user's session had loaded is not this one's.
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.session[0] });
  queryClient.setQueryData(queryKeys.session, session);
}

/** Forgets the session and everything read with it. */
export function endSession(api: ApiClient, queryClient: QueryClient): void {
  api.setCsrfToken(undefined);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.session[0] });
  queryClient.setQueryData(queryKeys.session, null);
}

export const dashboardApi = {
  signIn: (api: ApiClient, email: string, password: string) => api.post<SessionAnswer>('/session', { email, password }, { needsSession: false }),
  signOut: (api: ApiClient) => api.delete<{ signed_out: true }>('/session', { needsSession: false }),
  signOutEverywhere: (api: ApiClient) => api.delete<{ signed_out: true; sessions: number }>('/sessions', { needsSession: false }),
  acceptInvitation: (api: ApiClient, token: string, password: string) =>
    api.post<SessionAnswer>(`/invitations/${encodeURIComponent(token)}/accept`, { password }, { needsSession: false }),
  createKey: (api: ApiClient) => api.post<CreatedKey>('/keys', {}),
  revokeKey: (api: ApiClient, id: string) => api.delete<RevokedKey>(`/keys/${encodeURIComponent(id)}`),
  invite: (api: ApiClient, email: string, role: 'developer' | 'owner') => api.post<CreatedInvitation>('/invitations', { email, role }),
  cancelInvitation: (api: ApiClient, id: string) => api.delete<{ id: string; cancelled: true }>(`/invitations/${encodeURIComponent(id)}`),
  removeMember: (api: ApiClient, id: string) => api.delete<{ id: string; removed: true }>(`/members/${encodeURIComponent(id)}`),
};

export function keysQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.keys, queryFn: ({ signal }) => api.get<KeyList>('/keys', { signal }) });
}

export function membersQuery(api: ApiClient) {
  return queryOptions({ queryKey: queryKeys.members, queryFn: ({ signal }) => api.get<MemberList>('/members', { signal }) });
}
