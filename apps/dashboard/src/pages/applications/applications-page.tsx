// The company's applications: each `appid` OTP sends name, with its OTP settings; Create application.
import { Button, Card, Code, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { applicationKeys, applicationsApi, applicationsQuery, type Application } from '../../api/applications';
import { EmptyState, ErrorState, LoadingState } from '../../components/page-states';
import { RouterAnchor } from '../../components/router-anchor';
import { NEW_APPLICATION, settingsSummary } from './application-fields';
import { ApplicationForm } from './application-form';

function ApplicationCard({ application }: { application: Application }) {
  const titleId = `application-${application.appid}`;
  return (
    <Card withBorder padding="md" component="article" aria-labelledby={titleId}>
      <Stack gap={4}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <RouterAnchor to="/applications/$appid" params={{ appid: application.appid }} search={{}} fw={600} id={titleId}>
            {application.name}
          </RouterAnchor>
          <Code style={{ wordBreak: 'break-all' }}>{application.appid}</Code>
        </Group>
        <Text size="sm" c="dimmed">
          {settingsSummary(application)}
        </Text>
      </Stack>
    </Card>
  );
}

export function ApplicationsPage({ onCreated }: { onCreated: (appid: string) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const applications = useQuery(applicationsQuery(api));
  const [creating, setCreating] = useState(false);
  const create = useMutation({
    mutationFn: (body: Parameters<typeof applicationsApi.create>[1]) => applicationsApi.create(api, body),
    onSuccess: async (created) => {
      setCreating(false);
      notifications.show({ color: 'green', title: 'Application created', message: `${created.name}: appid ${created.appid}` });
      await queryClient.invalidateQueries({ queryKey: applicationKeys.all });
      onCreated(created.appid);
    },
  });
  const close = () => (create.reset(), setCreating(false));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            Applications
          </Title>
          <Text c="dimmed" size="sm">
            Each application has the appid OTP sends name, its OTP settings and its templates.
          </Text>
        </div>
        <Button onClick={() => setCreating(true)}>Create application</Button>
      </Group>
      {applications.isPending ? (
        <LoadingState label="Loading applications…" />
      ) : applications.isError ? (
        <ErrorState title="The applications could not be loaded" error={applications.error} onRetry={() => void applications.refetch()} />
      ) : applications.data.items.length === 0 ? (
        <EmptyState title="No applications yet" description="Create application makes one, with the appid your OTP sends name." />
      ) : (
        <Stack gap="sm">
          {applications.data.items.map((application) => (
            <ApplicationCard key={application.appid} application={application} />
          ))}
        </Stack>
      )}
      <Modal opened={creating} onClose={close} title="Create application">
        <ApplicationForm
          initialValues={NEW_APPLICATION}
          submitLabel="Create application"
          pending={create.isPending}
          error={create.isError ? create.error.message : undefined}
          onSubmit={(body) => create.mutate(body)}
          onCancel={close}
        />
      </Modal>
    </Stack>
  );
}
