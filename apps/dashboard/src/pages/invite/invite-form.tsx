import { Alert, Button, PasswordInput, Stack } from '@mantine/core';
import { hasLength, matchesField, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { ApiError } from '../../api/client';
import { dashboardApi } from '../../api/queries';
import type { SessionAnswer } from '../../api/types';

/** The dashboard API's rule for a password (argon2id-hashed server-side). */
export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 1024;

interface InviteValues {
  password: string;
  repeat: string;
}

export function invitationFailureMessage(error: unknown): string {
  if (error instanceof ApiError && (error.status === 404 || error.status === 410)) {
    return 'This invitation link cannot be used: it is unknown, already used or expired. Ask an owner of your company for a new one.';
  }
  if (error instanceof ApiError && error.status > 0 && error.status < 500) return error.message;
  if (error instanceof ApiError && error.status === 0) return error.message;
  return 'The invitation could not be accepted right now. Try again in a moment.';
}

export function InviteForm({ token, onAccepted }: { token: string; onAccepted: (session: SessionAnswer) => void }) {
  const api = useApi();
  const form = useForm<InviteValues>({
    mode: 'uncontrolled',
    initialValues: { password: '', repeat: '' },
    validate: {
      password: hasLength({ min: MIN_PASSWORD_LENGTH, max: MAX_PASSWORD_LENGTH }, `Use at least ${MIN_PASSWORD_LENGTH} characters`),
      repeat: matchesField('password', 'The two passwords differ'),
    },
  });
  const accept = useMutation({
    mutationFn: ({ password }: InviteValues) => dashboardApi.acceptInvitation(api, token, password),
    onSuccess: onAccepted,
  });

  return (
    <form noValidate onSubmit={form.onSubmit((values) => accept.mutate(values))} aria-label="Accept the invitation">
      <Stack gap="md">
        {accept.isError && (
          <Alert color="red" variant="light" role="alert" title="Invitation not accepted">
            {invitationFailureMessage(accept.error)}
          </Alert>
        )}
        <PasswordInput
          label="Password"
          description={`At least ${MIN_PASSWORD_LENGTH} characters`}
          autoComplete="new-password"
          required
          withAsterisk={false}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <PasswordInput
          label="Repeat the password"
          autoComplete="new-password"
          required
          withAsterisk={false}
          key={form.key('repeat')}
          {...form.getInputProps('repeat')}
        />
        <Button type="submit" loading={accept.isPending} fullWidth>
          Set password and sign in
        </Button>
      </Stack>
    </form>
  );
}
