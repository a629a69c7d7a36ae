import { Alert, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { billingKeys, billingSettingsQuery, saveBillingSettings } from '../../api/billing';
import { ErrorState, LoadingState } from '../../components/page-states';
import { formatMoney } from './billing-format';
import { BillingSettingsForm } from './billing-settings-form';
import { AnchorRouterLink } from './links';

function Heading() {
  return (
    <div>
      <Title order={1} size="h2">
        Billing settings
      </Title>
      <AnchorRouterLink to="/billing" size="sm">
        Back to Billing
      </AnchorRouterLink>
    </div>
  );
}

/** Owners only: a developer who types the address is told so, and nothing is asked of the API. */
export function BillingSettingsPage({ canChangeSettings }: { canChangeSettings: boolean }) {
  if (!canChangeSettings) {
    return (
      <Stack gap="lg">
        <Heading />
        <Alert color="gray" variant="light" title="Reserved to owners">
          Only your company&apos;s owners can change its billing settings. The balance and the ledger are on the Billing page.
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Heading />
      <OwnerSettings />
    </Stack>
  );
}

function OwnerSettings() {
  const api = useApi();
  const queryClient = useQueryClient();
  const settings = useQuery(billingSettingsQuery(api));
  const save = useMutation({
    mutationFn: (threshold: string | null) => saveBillingSettings(api, threshold),
    onSuccess: (saved) => {
      queryClient.setQueryData(billingKeys.settings, saved);
      void queryClient.invalidateQueries({ queryKey: billingKeys.balance });
      notifications.show({
        color: 'green',
        title: 'Settings saved',
        message:
          saved.low_balance_threshold === null
            ? 'No low-balance warning from now on.'
            : `Billing warns below ${formatMoney(saved.low_balance_threshold, saved.currency)}.`,
      });
    },
    onError: (error) => notifications.show({ color: 'red', title: 'Settings not saved', message: error.message }),
  });

  if (settings.isPending) return <LoadingState label="Loading the billing settings…" />;
  if (settings.isError) return <ErrorState title="The billing settings could not be loaded" error={settings.error} onRetry={() => void settings.refetch()} />;
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Changes are written to your company&apos;s audit log.
      </Text>
      <BillingSettingsForm
        key={String(settings.data.low_balance_threshold)}
        threshold={settings.data.low_balance_threshold}
        currency={settings.data.currency}
        pending={save.isPending}
        onSave={(threshold) => save.mutate(threshold)}
      />
    </Stack>
  );
}
