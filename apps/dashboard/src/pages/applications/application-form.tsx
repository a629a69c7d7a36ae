// An application's name and OTP settings: the same form creates one and changes one.
import { Alert, Button, Group, NumberInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { ApplicationBody } from '../../api/applications';
import { applicationBody, applicationRules, type ApplicationValues } from './application-fields';

export function ApplicationForm({
  initialValues,
  submitLabel,
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  initialValues: ApplicationValues;
  submitLabel: string;
  pending: boolean;
  error?: string;
  onSubmit: (body: ApplicationBody) => void;
  onCancel?: () => void;
}) {
  const form = useForm<ApplicationValues>({ mode: 'uncontrolled', initialValues, validate: applicationRules });
  return (
    <form noValidate aria-label={submitLabel} onSubmit={form.onSubmit((values) => onSubmit(applicationBody(values)))}>
      <Stack gap="sm">
        <TextInput label="Name" description="Shown in OTP texts as {{app_name}}" maxLength={200} key={form.key('name')} {...form.getInputProps('name')} />
        <NumberInput
          label="OTP expiry (minutes)"
          description="How long a code stays valid unless a send says otherwise: 1 to 60"
          min={1}
          max={60}
          allowDecimal={false}
          allowNegative={false}
          key={form.key('otpValidityMinutes')}
          {...form.getInputProps('otpValidityMinutes')}
        />
        <TextInput
          label="Allowed countries"
          description="Two-letter codes such as GB, FR; leave empty to allow every country"
          autoComplete="off"
          key={form.key('allowedCountries')}
          {...form.getInputProps('allowedCountries')}
        />
        <NumberInput
          label="Prefix limit (per hour)"
          description="OTPs an hour to numbers that share all but their last four digits"
          min={1}
          max={1_000_000}
          allowDecimal={false}
          allowNegative={false}
          thousandSeparator=","
          key={form.key('prefixLimitPerHour')}
          {...form.getInputProps('prefixLimitPerHour')}
        />
        {error && (
          <Alert color="red" variant="light" role="alert" title="Not saved">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel} disabled={pending}>
              Cancel
            </Button>
          )}
          <Button type="submit" loading={pending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
