// A table on a wide screen and a list of cards on a phone, where a table's columns would not fit
// (and a table that scrolls sideways is hard to read and to reach by keyboard).
import { Card, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** Numbers line up on the right. */
  numeric?: boolean;
  /** Already said by the card's title on a phone. */
  inCardTitle?: boolean;
}

export function ResponsiveTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  cardTitle,
}: {
  caption: string;
  columns: readonly Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  /** What heads a row's card on a phone. */
  cardTitle: (row: Row) => ReactNode;
}) {
  const wide = useMediaQuery('(min-width: 48em)', true, { getInitialValueInEffect: false });
  if (!wide) {
    return (
      <Stack gap="sm" component="ul" aria-label={caption} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {rows.map((row) => (
          <Card key={rowKey(row)} withBorder padding="sm" component="li">
            <Text fw={600} size="sm" mb={4} style={{ wordBreak: 'break-word' }}>
              {cardTitle(row)}
            </Text>
            <dl style={{ display: 'grid', gridTemplateColumns: 'minmax(6rem, auto) 1fr', gap: '2px 12px', margin: 0 }}>
              {columns
                .filter((column) => !column.inCardTitle)
                .map((column) => (
                  <CardField key={column.header} label={column.header} value={column.cell(row)} />
                ))}
            </dl>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <Table striped verticalSpacing="xs">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column.header} scope="col" ta={column.numeric ? 'right' : undefined}>
              {column.header}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((column) => (
              <Table.Td key={column.header} ta={column.numeric ? 'right' : undefined} style={{ wordBreak: 'break-word' }}>
                {column.cell(row)}
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function CardField({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <Text component="dt" size="xs" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ wordBreak: 'break-word' }}>
        {value}
      </Text>
    </>
  );
}
