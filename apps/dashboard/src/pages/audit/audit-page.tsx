import { Button, Card, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { auditQuery } from '../../api/audit';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { OperatorLink } from '../operator/operator-links';
import { AuditTable } from './audit-table';
import { AUDIT_ACTION_WORDS, AUDIT_ACTIONS, isAuditActionName, type AuditSearch } from './audit-words';

const ACTION_CHOICES = [{ value: '', label: 'All actions' }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: AUDIT_ACTION_WORDS[action] }))];

/** What the page reads: a company's log, or for an operator who named no company the platform's own. */
function scopeWords(operator: boolean, companyId: string | undefined): string {
  if (!operator) return "Every change of your company's keys, members, settings and balance: who made it and when.";
  if (companyId === undefined) return "The platform's own changes: operators created, prices set and imported. A company's log opens from its page.";
  return `Every change of company ${companyId}'s keys, members, settings and balance.`;
}

/** The audit log, newest first, 50 at a time, filtered by action (kept in the URL). */
export function AuditPage({ operator, search, onSearchChange }: { operator: boolean; search: AuditSearch; onSearchChange: (search: AuditSearch) => void }) {
  const api = useApi();
  const companyId = operator ? search.company_id : undefined;
  const log = useInfiniteQuery(auditQuery(api, { companyId: companyId ?? null, action: search.action ?? null }));
  const entries = log.data?.pages.flatMap((page) => page.items) ?? [];
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
          {scopeWords(operator, companyId)}
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
              <AuditTable entries={entries} />
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
