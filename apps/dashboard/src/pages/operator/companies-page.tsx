import { Alert, Button, Group, Modal, SegmentedControl, Stack, Text, TextInput, Title, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { companiesQuery, operatorApi, operatorKeys, type CreatedCompany, type OperatorCompany } from '../../api/operator';
import { CopyField } from '../../components/copy-field';
import { formatDateTime } from '../../components/format';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { ResponsiveTable, type Column } from '../../components/responsive-table';
import { CompanyStatusBadge } from './company-status-badge';
import { ConfirmSuspensionDialog } from './confirm-suspension-dialog';
import { CreateCompanyForm, type NewCompany } from './create-company-form';
import { OperatorLink } from './operator-links';
import { filterCompanies, formatAmount, type CompanyFilter } from './operator-rules';

const FILTER_LABELS: Record<CompanyFilter, string> = { all: 'All', active: 'Active', suspended: 'Suspended' };

export interface CompaniesView {
  status: CompanyFilter;
  search: string;
}

/** Every company with its balance and status; create one, suspend or unsuspend one (after a confirmation). */
export function CompaniesPage({ view, onViewChange }: { view: CompaniesView; onViewChange: (view: CompaniesView) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const companies = useQuery(companiesQuery(api));
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedCompany>();
  const [confirming, setConfirming] = useState<OperatorCompany>();

  const create = useMutation({
    mutationFn: (company: NewCompany) => operatorApi.createCompany(api, company),
    onSuccess: (answer) => {
      setCreating(false);
      setCreated(answer);
      void queryClient.invalidateQueries({ queryKey: operatorKeys.companies });
    },
  });
  const suspension = useMutation({
    mutationFn: (company: OperatorCompany) => (company.status === 'active' ? operatorApi.suspend(api, company.id) : operatorApi.unsuspend(api, company.id)),
    onSuccess: (company) => {
      setConfirming(undefined);
      notifications.show({ color: 'green', title: company.status === 'suspended' ? 'Company suspended' : 'Company unsuspended', message: company.name });
      void queryClient.invalidateQueries({ queryKey: operatorKeys.companies });
    },
  });

  const columns: Column<OperatorCompany>[] = [
    {
      header: 'Name',
      cell: (c) => (
        <OperatorLink to="/companies/$companyId" params={{ companyId: c.id }}>
          {c.name}
        </OperatorLink>
      ),
      inCardTitle: true,
    },
    { header: 'Balance', cell: (c) => formatAmount(c.balance, c.currency), numeric: true },
    { header: 'Status', cell: (c) => <CompanyStatusBadge status={c.status} /> },
    { header: 'Created', cell: (c) => formatDateTime(c.created_at) },
    {
      header: 'Actions',
      cell: (c) => (
        <Button size="xs" variant="default" color={c.status === 'active' ? 'red' : undefined} onClick={() => (suspension.reset(), setConfirming(c))}>
          {c.status === 'active' ? 'Suspend' : 'Unsuspend'}
          <VisuallyHidden> {c.name}</VisuallyHidden>
        </Button>
      ),
    },
  ];
  const shown = companies.data ? filterCompanies(companies.data, view.status, view.search) : [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Companies
          </Title>
          <Text c="dimmed" size="sm">
            Every customer company, its balance and whether it may use the platform.
          </Text>
        </div>
        <Button onClick={() => (create.reset(), setCreating(true))}>Create company</Button>
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Name or id"
          value={view.search}
          onChange={(event) => onViewChange({ ...view, search: event.currentTarget.value })}
          style={{ flex: '1 1 14rem' }}
        />
        <SegmentedControl
          aria-label="Which companies to show"
          value={view.status}
          onChange={(value) => onViewChange({ ...view, status: value as CompanyFilter })}
          data={(Object.keys(FILTER_LABELS) as CompanyFilter[]).map((value) => ({ value, label: FILTER_LABELS[value] }))}
        />
      </Group>
      {companies.isPending ? (
        <LoadingState label="Loading companies…" />
      ) : companies.isError ? (
        <ErrorState title="The companies could not be loaded" error={companies.error} onRetry={() => void companies.refetch()} />
      ) : shown.length === 0 ? (
        companies.data.length === 0 ? (
          <EmptyState title="No companies yet" description="Create company makes one with its opening balance and a first API key." />
        ) : (
          <EmptyState title="No company matches" description="Try another search or status." />
        )
      ) : (
        <ResponsiveTable
          caption={`${shown.length} of ${companies.data.length} companies`}
          columns={columns}
          rows={shown}
          rowKey={(c) => c.id}
          cardTitle={(c) => columns[0].cell(c)}
        />
      )}
      <Modal opened={creating} onClose={() => setCreating(false)} title="Create company">
        {create.isError && (
          <Alert color="red" variant="light" role="alert" title="Not created" mb="sm">
            {create.error.message}
          </Alert>
        )}
        <CreateCompanyForm pending={create.isPending} onSubmit={(company) => create.mutate(company)} onCancel={() => setCreating(false)} />
      </Modal>
      <CreatedCompanyDialog created={created} onClose={() => setCreated(undefined)} />
      <ConfirmSuspensionDialog
        company={confirming}
        pending={suspension.isPending}
        error={suspension.isError ? suspension.error.message : undefined}
        onConfirm={(company) => suspension.mutate(company)}
        onCancel={() => setConfirming(undefined)}
      />
    </Stack>
  );
}

/** The one moment a new company's API secret is shown. */
function CreatedCompanyDialog({ created, onClose }: { created: CreatedCompany | undefined; onClose: () => void }) {
  return (
    <Modal opened={created !== undefined} onClose={onClose} title={`${created?.company.name ?? 'Company'} created`} size="lg" closeOnClickOutside={false}>
      {created && (
        <Stack gap="md">
          <Alert color="orange" variant="light" title="Copy the secret now" role="note">
            <Text size="sm">This is the only time the API secret is shown. Give the key pair to the company; it can make more keys in the console.</Text>
          </Alert>
          <CopyField label="Application id" value={created.appid} />
          <CopyField label="API key" value={created.api_key} />
          <CopyField label="API secret" value={created.api_secret} />
          <Group justify="flex-end">
            <Button onClick={onClose}>Done</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
