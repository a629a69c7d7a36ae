import { Button, Card, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { auditQuery } from '../../api/audit';
import { balanceQuery } from '../../api/billing';
import { companyQuery } from '../../api/operator';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { OperatorLink } from '../operator/operator-links';
import { AuditTable } from './audit-table';
import { AUDIT_ACTION_WORDS, AUDIT_ACTIONS, isAuditActionName, type AuditSearch } from './audit-words';

const ACTION_CHOICES = [{ value: '', label: 'All actions' }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_WORDS[action] }))];

/** What the page reads: a company's log, or for an operator who named no company the platform's own. */
function scopeWords(operator: boolean, companyId: string | undefined, companyName: string | undefined): string {
  if (!operator) return "Every change of your company's keys, members, settings and balance: who made it and when.";
  if (companyId === undefined) return "The platform's own changes: operators created, prices set and imported. A company's log opens from its page.";
  return `Every change of ${companyName ?? `company ${companyId}`}'s keys, members, settings and balance.`;
}

/**
 * The company whose log is read, for its currency (an entry's amounts do not say it) and, for an
 * operator, its name: its own users' balance, an operator's chosen company. Nothing while it loads.
 */
function useCompanyShown(operator: boolean, companyId: string | undefined): { currency?: string; name?: string } {
  const api = useApi();
  const own = useQuery({ ...balanceQuery(api), enabled: !operator });
  const chosen = useQuery({ ...companyQuery(api, companyId ?? ''), enabled: operator && companyId !== undefined });
  if (!operator) return { currency: own.data?.currency };
  return companyId === undefined ? {} : { currency: chosen.data?.currency, name: chosen.data?.name };
}

/** The audit log, newest first, 50 at a time, filtered by action (kept in the URL). */
export function AuditPage({ operator, search, onSearchChange }: { operator: boolean; search: AuditSearch; onSearchChange: (search: AuditSearch) => void }) {
  const api = useApi();
  const companyId = operator ? search.company_id : undefined;
  const log = useInfiniteQuery(auditQuery(api, { companyId: companyId ?? null, action: search.action ?? null }));
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
  const company = useCompanyShown(operator, companyId);
  return (
    <Stack gap="lg">
      {companyId !== undefined && (
        <OperatorLink to="/companies/$companyId" params={{ companyId }} size="sm">
          ← The company
        </OperatorLink>
      )}
      <div>
        <Title order={1} size="h2">
          Audit log
        </Title>
        <Text c="dimmed" size="sm">
          {scopeWords(operator, companyId, company.name)}
        </Text>
      </div>
      <Card withBorder padding="md" component="section" aria-label="Audit log entries">
        <Stack gap="sm">
          <NativeSelect
            label="Action"
            description="Show only the entries of one kind of change"
            data={ACTION_CHOICES}
            value={search.action ?? ''}
            onChange={(event) => {
              const action = event.currentTarget.value;
              onSearchChange({ ...search, action: isAuditActionName(action) ? action : undefined });
            }}
            style={{ maxWidth: '24rem' }}
          />
          {log.isPending ? (
            <LoadingState label="Loading the audit log…" />
          ) : log.isError ? (
            <ErrorState title="The audit log could not be loaded" error={log.error} onRetry={() => void log.refetch()} />
          ) : entries.length === 0 ? (
            <EmptyState
              title={search.action ? 'No entries of this action' : 'No entries yet'}
              description={
                search.action
                  ? 'Choose All actions to see every entry.'
                  : 'Each change of keys, members, settings, balance or prices is listed here as it is made.'
              }
            />
          ) : (
            <>
              <AuditTable entries={entries} currency={company.currency} />
              {log.hasNextPage ? (
                <Button variant="default" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage} style={{ alignSelf: 'center' }}>
                  Load more
                </Button>
              ) : (
                <Text size="sm" c="dimmed" ta="center">
                  {entries.length === 1 ? 'One entry' : `All ${entries.length} entries`} shown.
                </Text>
              )}
            </>
          )}
        </Stack>
      </Card>
    </Stack>
  );
}
