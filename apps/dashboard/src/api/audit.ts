// The Audit log page's part of the dashboard API (docs/dashboard-api.json, GET /dashboard/api/audit).
import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ApiClient } from './client';
import { queryString } from './query-string';

export interface AuditEntry {
  id: string;
  at: string;
  /** Null: the operators' command-line tool. */
  actor: { id: string; email: string } | null;
  action: string;
  details: Record<string, unknown>;
}

export interface AuditPage {
  items: AuditEntry[];
  next_cursor: string | null;
}

/**
 * Whose entries: a company's (its own users leave `companyId` out; an operator names it), or for
 * an operator who names none the platform's own.
 */
export interface AuditView {
  companyId: string | null;
  action: string | null;
}

export const auditKeys = {
  all: ['audit'] as const,
  view: (view: AuditView) => ['audit', view.companyId, view.action] as const,
};

/** The entries, newest first, 50 a page ("Load more" asks for the next with its cursor). */
export function auditQuery(api: ApiClient, view: AuditView) {
  return infiniteQueryOptions({
    queryKey: auditKeys.view(view),
    queryFn: ({ pageParam, signal }) =>
      api.get<AuditPage>(
        `/audit${queryString({ company_id: view.companyId ?? undefined, action: view.action ?? undefined, cursor: pageParam ?? undefined })}`,
        {
          signal,
        },
      ),
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.next_cursor,
    // Read afresh each time the page opens: a change made a moment ago elsewhere in the console is listed.
    staleTime: 0,
  });
}
