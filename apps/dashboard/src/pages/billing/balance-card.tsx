import { Alert, Group, Paper, Stack, Text } from '@mantine/core';
import type { BillingBalance } from '../../api/billing';
import { formatMoney } from './billing-format';

/** The balance, and a warning while it is below the company's threshold (compared by the server, exactly). */
export function BalanceCard({ balance }: { balance: BillingBalance }) {
  return (
    <Stack gap="sm">
      {balance.low_balance && balance.low_balance_threshold !== null && (
        <Alert color="orange" variant="light" title="Your balance is low" role="alert">
          The balance is below your warning threshold of {formatMoney(balance.low_balance_threshold, balance.currency)}. Ask your account manager for a top-up
          before messages are refused.
        </Alert>
      )}
      <Paper withBorder p="md" role="group" aria-label="Balance">
        <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
          <div>
            <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
              Balance
            </Text>
            <Text fz={32} fw={700} lh={1.2}>
              {formatMoney(balance.balance, balance.currency)}
            </Text>
          </div>
          <Text size="sm" c="dimmed">
            {balance.low_balance_threshold === null
              ? 'No low-balance warning set'
              : `Warning below ${formatMoney(balance.low_balance_threshold, balance.currency)}`}
          </Text>
        </Group>
      </Paper>
    </Stack>
  );
}
