import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { isEmail, isNotEmpty, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useApi } from '../../api/api-context';
import { dashboardApi } from '../../api/queries';
import type { SessionAnswer } from '../../api/types';
import { signInFailureMessage } from './sign-in-messages';

export interface SignInValues {
  email: string;
  password: string;
}

export function SignInForm({ onSignedIn }: { onSignedIn: (session: SessionAnswer) => void }) {
  const api = useApi();
  const form = useForm<SignInValues>({
    mode: 'uncontrolled',
    initialValues: { email: '', password: '' },
    validate: {
      email: isEmail('Enter your email address, e.g. name@example.com'),
      password: isNotEmpty('Enter your password'),
    },
  });
  const signIn = useMutation({
    mutationFn: ({ email, password }: SignInValues) => dashboardApi.signIn(api, email.trim(), password),
    onSuccess: onSignedIn,
  });

  return (
    <form noValidate onSubmit={form.onSubmit((values) => signIn.mutate(values))} aria-label="Sign in">
      <Stack gap="md">
        {signIn.isError && (
          <Alert color="red" variant="light" role="alert" title="Not signed in">
            {signInFailureMessage(signIn.error)}
          </Alert>
        )}
        <TextInput label="Email" type="email" autoComplete="username" required withAsterisk={false} key={form.key('email')} {...form.getInputProps('email')} />
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          required
          withAsterisk={false}
          key={form.key('password')}
          {...form.getInputProps('password')}
        />
        <Button type="submit" loading={signIn.isPending} fullWidth>
          Sign in
        </Button>
      </Stack>
    </form>
  );
}
