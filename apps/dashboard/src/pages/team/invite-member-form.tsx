import { Alert, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { isEmail, useForm } from '@mantine/form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { dashboardApi, queryKeys } from '../../api/queries';
import type { CreatedInvitation } from '../../api/types';
import { CopyField } from '../../components/copy-field';

interface InviteValues {
  email: string;
  role: 'developer' | 'owner';
}

/** The invitation's one-time link as a full address to hand over (the API gives its path). */
export function invitationUrl(link: string, origin: string): string {
  return new URL(link, origin).toString();
}

export function InviteMemberForm() {
  const api = useApi();
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<CreatedInvitation>();
  const form = useForm<InviteValues>({
    mode: 'uncontrolled',
    initialValues: { email: '', role: 'developer' },
    validate: { email: isEmail('Enter the email address of the person to invite') },
  });
  const invite = useMutation({
    mutationFn: ({ email, role }: InviteValues) => dashboardApi.invite(api, email.trim(), role),
    onSuccess: (invitation) => {
      setCreated(invitation);
      form.reset();
      void queryClient.invalidateQueries({ queryKey: queryKeys.members });
    },
  });

  return (
    <Stack gap="sm">
      <form noValidate onSubmit={form.onSubmit((values) => invite.mutate(values))} aria-label="Invite a member">
        <Group align="flex-end" gap="sm">
          <TextInput
            label="Email"
            type="email"
            required
            withAsterisk={false}
            key={form.key('email')}
            {...form.getInputProps('email')}
            style={{ flex: '1 1 16rem' }}
          />
          <Select
            label="Role"
            data={[
              { value: 'developer', label: 'Developer' },
              { value: 'owner', label: 'Owner' },
            ]}
            allowDeselect={false}
            key={form.key('role')}
            {...form.getInputProps('role')}
            style={{ flex: '0 1 10rem' }}
          />
          <Button type="submit" loading={invite.isPending}>
            Invite
          </Button>
        </Group>
      </form>
      {invite.isError && (
        <Alert color="red" variant="light" role="alert" title="No invitation was made">
          {invite.error.message}
        </Alert>
      )}
      {created && (
        <Alert color="green" variant="light" title={`Invitation for ${created.email}`}>
          <Stack gap="xs">
            <CopyField
              label="Invitation link"
              value={invitationUrl(created.link, window.location.origin)}
              description="Shown once. Send it to them: it works once, until the invitation expires (7 days)."
            />
          </Stack>
        </Alert>
      )}
    </Stack>
  );
}
