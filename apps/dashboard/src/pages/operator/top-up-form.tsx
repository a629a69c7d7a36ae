import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { amountError, referenceError } from './operator-rules';

/** A top-up: the amount as exact decimal text (never a float), and an optional reference that makes it happen once. */
export function TopUpForm({
  currency,
  pending,
  onSubmit,
  onCancel,
}: {
  currency: string;
  pending: boolean;
  onSubmit: (topUp: { amount: string; reference?: string }) => void;
  onCancel: () => void;
}) {
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState('');
  const [touched, setTouched] = useState(false);
  const errors = { amount: amountError(amount), reference: referenceError(reference) };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (errors.amount === null && errors.reference === null) onSubmit({ amount: amount.trim(), ...(reference.trim() ? { reference: reference.trim() } : {}) });
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Top up">
      <Stack gap="sm">
        <TextInput
          label="Amount"
          description={`In ${currency}, up to 4 decimals`}
          inputMode="decimal"
          autoComplete="off"
          data-autofocus
          value={amount}
          error={touched ? errors.amount : undefined}
          onChange={(event) => setAmount(event.currentTarget.value)}
        />
        <TextInput
          label="Reference"
          description="Optional: a bank transfer or invoice number. The same reference is never credited twice."
          autoComplete="off"
          value={reference}
          error={touched ? errors.reference : undefined}
          onChange={(event) => setReference(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            Credit balance
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
