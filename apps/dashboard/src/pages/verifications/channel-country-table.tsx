import { Title } from '@mantine/core';
import type { VerificationRow } from '../../api/verifications';
import { formatRate } from '../../components/chart-format';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { byChannelAndCountry, type ChannelCountryRow } from './verification-chart-data';

const CHANNEL_LABELS = { sms: 'SMS', whatsapp: 'WhatsApp' } as const;
const countryLabel = (row: ChannelCountryRow) => row.country ?? 'Unknown';

const COLUMNS: Column<ChannelCountryRow>[] = [
  { header: 'Channel', cell: (row) => CHANNEL_LABELS[row.channel], inCardTitle: true },
  { header: 'Country', cell: countryLabel, inCardTitle: true },
  { header: 'Sent', cell: (row) => row.sent, numeric: true },
  { header: 'Verified', cell: (row) => row.verified, numeric: true },
  { header: 'Conversion', cell: (row) => formatRate(row.conversionRate), numeric: true },
];

/** The range's OTPs per channel and recipient's country. */
export function ChannelCountryTable({ rows }: { rows: readonly VerificationRow[] }) {
  return (
    <section aria-labelledby="by-country-title">
      <Title order={2} size="h4" id="by-country-title" mb="xs">
        By channel and country
      </Title>
      <ResponsiveTable
        caption="OTPs sent and verified per channel and recipient's country over the range"
        columns={COLUMNS}
        rows={byChannelAndCountry(rows)}
        rowKey={(row) => `${row.channel}-${row.country ?? ''}`}
        cardTitle={(row) => `${CHANNEL_LABELS[row.channel]} · ${countryLabel(row)}`}
      />
    </section>
  );
}
