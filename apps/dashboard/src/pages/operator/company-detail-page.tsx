import { Alert, Button, Card, Group, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { companyQuery, operatorApi, operatorKeys, type OperatorCompany } from '../../api/operator';
import { formatDateTime } from '../../components/format';
import { ErrorState, LoadingState } from '../../components/page-states';
import { CompanyStatusBadge } from './company-status-badge';
import { ConfirmSuspensionDialog } from './confirm-suspension-dialog';
import { OperatorLink } from './operator-links';
import { formatAmount } from './operator-rules';
import { TopUpForm } from './top-up-form';

/** One company for an operator: its balance and status, `Top up`, and suspend or unsuspend after a confirmation. */
export function CompanyDetailPage({ companyId }: { companyId: string }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const company = useQuery(companyQuery(api, companyId));
  const [toppingUp, setToppingUp] = useState(false);
  const [confirming, setConfirming] = useState<OperatorCompany>();

  const changed = (next: OperatorCompany) => {
    queryClient.setQueryData(operatorKeys.company(companyId), next);
    void queryClient.invalidateQueries({ queryKey: operatorKeys.companies });
  };
  const topUp = useMutation({
    mutationFn: (body: { amount: string; reference?: string }) => operatorApi.topUp(api, companyId, body),
    onSuccess: (answer) => {
      setToppingUp(false);
      if (company.data) changed({ ...company.data, balance: answer.balance });
      notifications.show({
        color: 'green',
        title: 'Balance topped up',
        message: `New balance: ${formatAmount(answer.balance, company.data?.currency ?? 'EUR')}`,
      });
    },
  });
  const suspension = useMutation({
    mutationFn: (current: OperatorCompany) => (current.status === 'active' ? operatorApi.suspend(api, current.id) : operatorApi.unsuspend(api, current.id)),
    onSuccess: (next) => {
      setConfirming(undefined);
      changed(next);
      notifications.show({ color: 'green', title: next.status === 'suspended' ? 'Company suspended' : 'Company unsuspended', message: next.name });
    },
  });

  if (company.isPending) return <LoadingState label="Loading the company…" />;
  if (company.isError) return <ErrorState title="The company could not be loaded" error={company.error} onRetry={() => void company.refetch()} />;
  const shown = company.data;

  return (
    <Stack gap="lg">
      <OperatorLink to="/companies" search={{}} size="sm">
        ← Companies
      </OperatorLink>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {shown.name}
          </Title>
          <Text c="dimmed" size="sm" style={{ wordBreak: 'break-all' }}>
            {shown.id}
          </Text>
        </div>
        <Group gap="sm">
          <Button onClick={() => (topUp.reset(), setToppingUp(true))}>Top up</Button>
          <Button variant="default" color={shown.status === 'active' ? 'red' : undefined} onClick={() => (suspension.reset(), setConfirming(shown))}>
            {shown.status === 'active' ? 'Suspend' : 'Unsuspend'}
          </Button>
        </Group>
      </Group>
      {shown.status === 'suspended' && (
        <Alert color="red" variant="light" title="Suspended" role="status">
          Since {formatDateTime(shown.suspended_at)}: its API keys are refused and its users can change nothing.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Fact label="Balance" value={formatAmount(shown.balance, shown.currency)} />
        <Fact label="Status" value={<CompanyStatusBadge status={shown.status} />} />
        <Fact label="Created" value={formatDateTime(shown.created_at)} />
      </SimpleGrid>
      <OperatorLink to="/audit" search={{ company_id: shown.id }} size="sm">
        The company's audit log
      </OperatorLink>
      <Modal opened={toppingUp} onClose={() => setToppingUp(false)} title={`Top up ${shown.name}`}>
        {topUp.isError && (
          <Alert color="red" variant="light" role="alert" title="Not topped up" mb="sm">
            {topUp.error.message}
          </Alert>
        )}
        <TopUpForm currency={shown.currency} pending={topUp.isPending} onSubmit={(body) => topUp.mutate(body)} onCancel={() => setToppingUp(false)} />
      </Modal>
      <ConfirmSuspensionDialog
        company={confirming}
        pending={suspension.isPending}
        error={suspension.isError ? suspension.error.message : undefined}
        onConfirm={(current) => suspension.mutate(current)}
        onCancel={() => setConfirming(undefined)}
      />
    </Stack>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="xl" fw={600} component="div">
        {value}
      </Text>
    </Card>
  );
}
