// The verifications filter form: applied to the URL on "Apply filters" (or Enter), so a filtered
// view can be shared; "Clear filters" goes back to the last 30 days, every channel and country.
import { Button, Group, NativeSelect, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import type { OtpChannel } from '../../api/verifications';
import { isVerificationFiltered, parseVerificationFilter, type VerificationFilter } from './verification-filter';
import { DateRangeInputs } from '../../components/date-range-inputs';

const CHANNELS = [
  { value: '', label: 'All channels' },
  { value: 'sms', label: 'SMS' },
  { value: 'whatsapp', label: 'WhatsApp' },
];

export function VerificationFilters({ filter, onApply }: { filter: VerificationFilter; onApply: (filter: VerificationFilter) => void }) {
  const [from, setFrom] = useState(filter.from ?? '');
  const [to, setTo] = useState(filter.to ?? '');
  const [channel, setChannel] = useState<string>(filter.channel ?? '');
  const [country, setCountry] = useState(filter.country ?? '');
  const countryWrong = country.trim() !== '' && !/^[A-Za-z]{2}$/.test(country.trim());

  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (countryWrong) return;
    onApply(parseVerificationFilter({ from, to, channel: channel as OtpChannel | '', country }));
  };

  return (
    <form role="search" aria-label="Filter verifications" onSubmit={apply} noValidate>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <DateRangeInputs from={from} to={to} onFromChange={setFrom} onToChange={setTo} />
        <NativeSelect
          label="Channel"
          data={CHANNELS}
          value={channel}
          onChange={(event) => setChannel(event.currentTarget.value)}
          style={{ flex: '1 1 9rem' }}
        />
        <TextInput
          label="Country"
          description="Two letters, e.g. DE"
          value={country}
          maxLength={2}
          error={countryWrong ? 'Enter a two-letter country code such as DE' : undefined}
          onChange={(event) => setCountry(event.currentTarget.value.toUpperCase())}
          style={{ flex: '1 1 8rem' }}
        />
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          {isVerificationFiltered(filter) && (
            <Button variant="default" onClick={() => onApply({})}>
              Clear filters
            </Button>
          )}
        </Group>
      </Group>
    </form>
  );
}
