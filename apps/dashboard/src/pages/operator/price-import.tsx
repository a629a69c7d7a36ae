import { Alert, Button, Input, Stack, Text } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';

/** Reads a chosen CSV file as text and hands it over; shows the API's answer (how many were set, or the line it refused). */
export function PriceImport({
  pending,
  result,
  error,
  onImport,
}: {
  pending: boolean;
  result: number | undefined;
  error: string | undefined;
  onImport: (csv: string) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [readError, setReadError] = useState<string>();
  const inputId = useId();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setReadError('Choose a CSV file first');
    try {
      setReadError(undefined);
      onImport(await readText(file));
    } catch {
      setReadError('The file could not be read');
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label="Import prices">
      <Stack gap="sm">
        <Stack gap="sm" align="flex-start">
          {/* The browser's own file input: a label it is named by, and keyboard and screen reader support as every browser gives it. */}
          <Input.Wrapper
            label="Price file (CSV)"
            labelElement="label"
            id={inputId}
            description="A header prefix,route,price, then one price a line: the export's format. All rows are checked first; one bad row changes nothing."
            style={{ width: '100%', minWidth: 0 }}
          >
            <input
              id={inputId}
              type="file"
              accept=".csv,text/csv"
              style={{ display: 'block', marginTop: 4, maxWidth: '100%' }}
              onChange={(event) => (setFile(event.currentTarget.files?.[0] ?? null), setReadError(undefined))}
            />
          </Input.Wrapper>
          <Button type="submit" variant="default" loading={pending}>
            Import prices
          </Button>
        </Stack>
        {(readError ?? error) && (
          <Alert color="red" variant="light" role="alert" title="Nothing was imported">
            {readError ?? error}
          </Alert>
        )}
        {result !== undefined && !error && !readError && (
          <Text size="sm" role="status" c="teal.9">
            {result} {result === 1 ? 'price' : 'prices'} imported.
          </Text>
        )}
      </Stack>
    </form>
  );
}

/** A file's text (UTF-8), through FileReader: every browser has it. */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsText(file);
  });
}
