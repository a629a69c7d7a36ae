import { Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { PRICE_ROUTES, type Price } from '../../api/operator';
import { amountError, prefixError } from './operator-rules';

export interface PriceChange {
  prefix: string;
  route: string;
  price: string;
}

/** A price of a prefix and route: editing one keeps its prefix and route; a new one names them. */
export function PriceForm({
  editing,
  pending,
  onSubmit,
  onCancel,
}: {
  editing: Price | null;
  pending: boolean;
  onSubmit: (change: PriceChange) => void;
  onCancel: () => void;
}) {
  const [prefix, setPrefix] = useState(editing?.prefix ?? '+');
  const [route, setRoute] = useState<string>(editing?.route ?? 'auto');
  const [price, setPrice] = useState(editing ? editing.price.toFixed(4) : '');
  const [touched, setTouched] = useState(false);
  const errors = { prefix: prefixError(prefix), price: amountError(price, { allowZero: true, field: 'Price' }) };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (errors.prefix === null && errors.price === null) onSubmit({ prefix: prefix.trim(), route, price: price.trim() });
  };

  return (
    <form onSubmit={submit} noValidate aria-label={editing ? 'Edit price' : 'Add price'}>
      <Stack gap="sm">
        <TextInput
          label="Prefix"
          description="+ and the digits numbers start with; + alone is every number. The longest matching prefix applies."
          autoComplete="off"
          readOnly={editing !== null}
          value={prefix}
          error={touched ? errors.prefix : undefined}
          onChange={(event) => setPrefix(event.currentTarget.value)}
        />
        <Select
          label="Route"
          data={[...PRICE_ROUTES]}
          value={route}
          onChange={(value) => setRoute(value ?? 'auto')}
          allowDeselect={false}
          disabled={editing !== null}
        />
        <TextInput
          label="Price"
          description="Per SMS part (per message on WhatsApp), up to 4 decimals"
          inputMode="decimal"
          autoComplete="off"
          data-autofocus
          value={price}
          error={touched ? errors.price : undefined}
          onChange={(event) => setPrice(event.currentTarget.value)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" loading={pending}>
            Save price
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
