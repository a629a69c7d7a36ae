import { Button, Group, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { amountError } from './operator-rules';

export interface NewCompany {
  name: string;
  currency: string;
  balance: string;
}

const CURRENCY = /^[A-Za-z]{3}$/;

/** A new company: its name, currency and opening balance (exact decimal text). */
export function CreateCompanyForm({ pending, onSubmit, onCancel }: { pending: boolean; onSubmit: (company: NewCompany) => void; onCancel: () => void }) {
  const [name, setName] = useState('');
  const [currency, setCurrency] = useState('EUR');
  const [balance, setBalance] = useState('0');
  const [touched, setTouched] = useState(false);
  const errors = {
    name: name.trim() === '' ? 'Name is required' : name.trim().length > 100 ? 'Name must be at most 100 characters' : null,
    currency: CURRENCY.test(currency.trim()) ? null : 'Currency must be a 3-letter code, e.g. EUR',
    balance: amountError(balance, { allowZero: true, field: 'Opening balance' }),
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (Object.values(errors).every((error) => error === null)) {
      onSubmit({ name: name.trim(), currency: currency.trim().toUpperCase(), balance: balance.trim() });
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Create company">
      <Stack gap="sm">
        <TextInput
          label="Name"
          data-autofocus
          autoComplete="off"
          value={name}
          error={touched ? errors.name : undefined}
          onChange={(e) => setName(e.currentTarget.value)}
        />
        <TextInput
          label="Currency"
          autoComplete="off"
          maxLength={3}
          value={currency}
          error={touched ? errors.currency : undefined}
          onChange={(e) => setCurrency(e.currentTarget.value)}
        />
        <TextInput
          label="Opening balance"
          inputMode="decimal"
          autoComplete="off"
          value={balance}
          error={touched ? errors.balance : undefined}
          onChange={(e) => setBalance(e.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            Create company
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
