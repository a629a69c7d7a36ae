// The log's filter form: what it holds is applied to the URL on "Apply filters" (or Enter), so a
// filtered view can be shared; "Clear" shows every message again.
import { Button, Chip, Group, Stack, Text, TextInput } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import { MESSAGE_STATUSES, type MessageStatus } from '../../api/messages';
import { isFiltered, type MessageFilter } from './message-filter';
import { DateRangeInputs } from '../../components/date-range-inputs';

export function MessageFilters({ filter, onApply }: { filter: MessageFilter; onApply: (filter: MessageFilter) => void }) {
  const [search, setSearch] = useState(filter.search ?? '');
  const [statuses, setStatuses] = useState<string[]>(filter.status ?? []);
  const [from, setFrom] = useState(filter.from ?? '');
  const [to, setTo] = useState(filter.to ?? '');
  const [campaign, setCampaign] = useState(filter.campaign ?? '');
  const statusLabel = useId();

  const apply = (event: FormEvent) => {
    event.preventDefault();
    onApply({
      search: search.trim() || undefined,
      status: statuses.length > 0 ? MESSAGE_STATUSES.filter((status) => statuses.includes(status)) : undefined,
      from: from || undefined,
      to: to || undefined,
      campaign: campaign.trim() || undefined,
    });
  };

  return (
    <form role="search" aria-label="Filter messages" onSubmit={apply} noValidate>
      <Stack gap="sm">
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label="Search"
            description="A number or its first digits, a message ID, or your reference"
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            type="search"
            style={{ flex: '1 1 18rem' }}
          />
          <DateRangeInputs from={from} to={to} onFromChange={setFrom} onToChange={setTo} flex="0 1 11rem" />
          <TextInput
            label="Campaign ID"
            value={campaign}
            onChange={(event) => setCampaign(event.currentTarget.value)}
            style={{ flex: '1 1 18rem' }}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </Group>
        <div role="group" aria-labelledby={statusLabel}>
          <Text id={statusLabel} size="sm" fw={500} mb={4}>
            Status
          </Text>
          <Chip.Group multiple value={statuses} onChange={setStatuses}>
            <Group gap="xs">
              {MESSAGE_STATUSES.map((status: MessageStatus) => (
                <Chip key={status} value={status} size="sm" variant="outline">
                  {status}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </div>
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          {isFiltered(filter) && (
            <Button variant="default" onClick={() => onApply({})}>
              Clear filters
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}
