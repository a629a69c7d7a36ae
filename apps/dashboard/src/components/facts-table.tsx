import { Table } from '@mantine/core';
import type { ReactNode } from 'react';

/** Named values, one a row, the name as the row's header: a detail page's facts. */
export function FactsTable({ rows }: { rows: readonly (readonly [string, ReactNode])[] }) {
  return (
    <Table variant="vertical" layout="fixed" withTableBorder>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th scope="row" w="40%">
              {label}
            </Table.Th>
            <Table.Td style={{ wordBreak: 'break-word' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
