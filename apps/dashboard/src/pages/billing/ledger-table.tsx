import { Badge, Code, Text } from '@mantine/core';
import type { LedgerEntry, LedgerKind } from '../../api/billing';
import { formatDateTime } from '../../components/format';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { formatMoney } from './billing-format';
import { KIND_LABELS } from './ledger-filters';

const KIND_COLORS: Record<LedgerKind, string> = { topup: 'green', charge: 'blue', refund: 'teal', adjustment: 'gray' };

function columns(currency: string): Column<LedgerEntry>[] {
  return [
    {
      header: 'Date',
      cell: (entry) => (
        <time dateTime={entry.created_at} title={entry.created_at}>
          {formatDateTime(entry.created_at)}
        </time>
      ),
    },
    {
      header: 'Kind',
      cell: (entry) => (
        <Badge color={KIND_COLORS[entry.kind]} variant="light">
          {KIND_LABELS[entry.kind]}
        </Badge>
      ),
    },
    { header: 'Amount', cell: (entry) => formatMoney(entry.amount, currency), numeric: true },
    { header: 'Balance after', cell: (entry) => formatMoney(entry.balance_after, currency), numeric: true },
    {
      header: 'Reference',
      cell: (entry) =>
        entry.reference ? (
          <Code style={{ wordBreak: 'break-all' }}>{entry.reference}</Code>
        ) : (
          <Text span c="dimmed">
            —
          </Text>
        ),
    },
    { header: 'Description', cell: (entry) => entry.description ?? '—' },
  ];
}

export function LedgerTable({ entries, currency }: { entries: readonly LedgerEntry[]; currency: string }) {
  return (
    <ResponsiveTable
      caption="Ledger entries, newest first"
      columns={columns(currency)}
      rows={entries}
      rowKey={(entry) => String(entry.id)}
      cardTitle={(entry) => `${KIND_LABELS[entry.kind]} ${formatMoney(entry.amount, currency)}`}
    />
  );
}
