// One application: its appid, its name and OTP settings (changed in place), and its templates.
import { Divider, Paper, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { applicationKeys, applicationQuery, applicationsApi, type ApplicationBody } from '../../api/applications';
import { CopyField } from '../../components/copy-field';
import { ErrorState, LoadingState } from '../../components/page-states';
import { RouterAnchor } from '../../components/router-anchor';
import { valuesOf } from './application-fields';
import { ApplicationForm } from './application-form';
import { TemplatesSection } from './templates-section';
import type { TemplateSearch } from './template-view';

export function ApplicationPage({ appid, search, onSearch }: { appid: string; search: TemplateSearch; onSearch: (search: TemplateSearch) => void }) {
  const api = useApi();
  const queryClient = useQueryClient();
  const application = useQuery(applicationQuery(api, appid));
  const update = useMutation({
    mutationFn: (body: ApplicationBody) => applicationsApi.update(api, appid, body),
    onSuccess: (saved) => {
      notifications.show({ color: 'green', title: 'Application saved', message: `${saved.name}: settings saved.` });
      queryClient.setQueryData(applicationKeys.detail(appid), saved);
      void queryClient.invalidateQueries({ queryKey: applicationKeys.list() });
    },
  });

  const back = (
    <RouterAnchor to="/applications" size="sm">
      ← All applications
    </RouterAnchor>
  );
  if (application.isPending) return <LoadingState label="Loading the application…" />;
  if (application.isError) {
    return (
      <Stack gap="md">
        {back}
        <ErrorState title="The application could not be loaded" error={application.error} onRetry={() => void application.refetch()} />
      </Stack>
    );
  }
  const app = application.data;
  return (
    <Stack gap="lg">
      {back}
      <div>
        <Title order={1} size="h2">
          {app.name}
        </Title>
        <Text c="dimmed" size="sm">
          OTP times are shown in {app.timezone}.
        </Text>
      </div>
      <CopyField label="appid" value={app.appid} description="Send it as appid with POST /otp/send" />
      <Paper withBorder p="md" component="section" aria-labelledby="settings-title">
        <Title order={2} size="h3" id="settings-title" mb="sm">
          Settings
        </Title>
        <ApplicationForm
          key={`${app.name}-${app.otp_validity_minutes}-${app.otp_prefix_limit_per_hour}-${String(app.allowed_countries)}`}
          initialValues={valuesOf(app)}
          submitLabel="Save settings"
          pending={update.isPending}
          error={update.isError ? update.error.message : undefined}
          onSubmit={(body) => update.mutate(body)}
        />
      </Paper>
      <Divider />
      <TemplatesSection appid={appid} search={search} onSearch={onSearch} />
    </Stack>
  );
}
