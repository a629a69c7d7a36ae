import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { thresholdError, thresholdValue } from './billing-format';

/** The low-balance threshold: typed as decimal text, checked here as the API checks it, empty for none. */
export function BillingSettingsForm({
  threshold,
  currency,
  pending,
  onSave,
}: {
  threshold: number | null;
  currency: string;
  pending: boolean;
  onSave: (threshold: string | null) => void;
}) {
  const [text, setText] = useState(threshold === null ? '' : String(threshold));
  const [touched, setTouched] = useState(false);
  const error = thresholdError(text);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (error === null) onSave(thresholdValue(text));
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Billing settings">
      <Stack gap="sm" maw={420}>
        <TextInput
          label={`Low-balance warning (${currency})`}
          description="The Billing page warns everyone in your company while the balance is below this amount. Leave it empty for no warning."
          inputMode="decimal"
          value={text}
          error={touched ? error : undefined}
          onChange={(event) => setText(event.currentTarget.value)}
          onBlur={() => setTouched(true)}
        />
        <Group>
          <Button type="submit" loading={pending}>
            Save settings
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
