// The entries as a table on a wide screen, as cards on a phone (ResponsiveTable).
import { Text } from '@mantine/core';
import type { AuditEntry } from '../../api/audit';
import { formatDateTime } from '../../components/format';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { actionWords, actorWords, summarise } from './audit-words';

const columns = (currency: string | undefined): Column<AuditEntry>[] => [
  {
    header: 'Time',
    cell: (entry) => (
      <time dateTime={entry.at} title={entry.at}>
        {formatDateTime(entry.at)}
      </time>
    ),
  },
  {
    header: 'Who',
    cell: (entry) =>
      entry.actor === null ? (
        <Text span size="sm" fs="italic">
          {actorWords(entry)}
        </Text>
      ) : (
        <Text span size="sm" style={{ wordBreak: 'break-all' }}>
          {actorWords(entry)}
        </Text>
      ),
  },
  {
    header: 'Action',
    cell: (entry) => (
      // Plain text rather than a badge, which would cut a long label short.
      <Text span size="sm" fw={600}>
        {actionWords(entry.action)}
      </Text>
    ),
    inCardTitle: true,
  },
  {
    header: 'Details',
    cell: (entry) => (
      <Text span size="sm" style={{ wordBreak: 'break-word' }}>
        {summarise(entry, currency)}
      </Text>
    ),
  },
];

/** `currency`: the company's, for its amounts, once known. */
export function AuditTable({ entries, currency }: { entries: readonly AuditEntry[]; currency: string | undefined }) {
  return (
    <ResponsiveTable
      caption="Audit log entries, newest first"
      columns={columns(currency)}
      rows={entries}
      rowKey={(entry) => entry.id}
      cardTitle={(entry) => actionWords(entry.action)}
    />
  );
}
