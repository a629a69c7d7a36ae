// A chart as a figure: its caption, a sentence that says what it shows (for everyone, and for a
// screen reader in place of the drawing), the chart, and its numbers as a table behind a toggle.
import { Paper, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useId, type ReactNode } from 'react';

export interface ChartTable {
  columns: readonly string[];
  rows: readonly (readonly ReactNode[])[];
}

export function ChartFigure({ title, summary, table, children }: { title: string; summary: string; table: ChartTable; children: ReactNode }) {
  const [open, { toggle }] = useDisclosure(false);
  const titleId = useId();
  const tableId = useId();
  return (
    <Paper component="figure" withBorder p="md" m={0} aria-labelledby={titleId}>
      <Stack gap="xs">
        <Title order={3} size="h5" id={titleId}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {summary}
        </Text>
        {/* The drawing repeats the summary and the table: a screen reader is given those instead. */}
        <div aria-hidden="true">{children}</div>
        <UnstyledButton onClick={toggle} aria-expanded={open} aria-controls={tableId} style={{ alignSelf: 'flex-start' }}>
          <Text size="sm" c="blue.8" td="underline">
            {open ? 'Hide the numbers' : 'Show the numbers'}
          </Text>
        </UnstyledButton>
        <div id={tableId} hidden={!open}>
          {open && (
            <Table striped verticalSpacing={4} fz="sm">
              <Table.Caption>{title}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  {table.columns.map((column) => (
                    <Table.Th key={column} scope="col">
                      {column}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {table.rows.map((row, index) => (
                  <Table.Tr key={index}>
                    {row.map((cell, column) => (
                      <Table.Td key={column}>{cell}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </div>
      </Stack>
    </Paper>
  );
}
