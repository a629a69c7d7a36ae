// The ledger's filter form: applied to the URL on "Apply filters" (or Enter), so a filtered view
// can be shared (and exported as it is shown); "Clear filters" shows every entry again.
import { Button, Chip, Group, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import { LEDGER_KINDS, type LedgerKind } from '../../api/billing';
import { isLedgerFiltered, type LedgerFilter } from './ledger-filter';
import { DateRangeInputs } from '../../components/date-range-inputs';

export const KIND_LABELS: Record<LedgerKind, string> = { topup: 'Top-up', charge: 'Charge', refund: 'Refund', adjustment: 'Adjustment' };

export function LedgerFilters({ filter, onApply }: { filter: LedgerFilter; onApply: (filter: LedgerFilter) => void }) {
  const [kinds, setKinds] = useState<string[]>(filter.kinds ?? []);
  const [from, setFrom] = useState(filter.from ?? '');
  const [to, setTo] = useState(filter.to ?? '');
  const [reference, setReference] = useState(filter.reference ?? '');
  const kindsLabel = useId();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      kinds: kinds.length > 0 ? LEDGER_KINDS.filter((kind) => kinds.includes(kind)) : undefined,
      from: from || undefined,
      to: to || undefined,
      reference: reference.trim() || undefined,
    });
  };

  return (
    <form role="search" aria-label="Filter the ledger" onSubmit={apply} noValidate>
      <Stack gap="sm">
        <div role="group" aria-labelledby={kindsLabel}>
          <Text id={kindsLabel} size="sm" fw={500} mb={4}>
            Kinds
          </Text>
          <Chip.Group multiple value={kinds} onChange={setKinds}>
            <Group gap="xs">
              {LEDGER_KINDS.map((kind) => (
                <Chip key={kind} value={kind} size="sm" variant="outline">
                  {KIND_LABELS[kind]}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <DateRangeInputs from={from} to={to} onFromChange={setFrom} onToChange={setTo} />
          <TextInput
            label="Reference"
            description="Exact, e.g. otp:… or message:…"
            value={reference}
            onChange={(event) => setReference(event.currentTarget.value)}
            style={{ flex: '2 1 16rem' }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </Group>
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          {isLedgerFiltered(filter) && (
            <Button variant="default" onClick={() => onApply({})}>
              Clear filters
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
