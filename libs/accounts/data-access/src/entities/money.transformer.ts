import { formatMoney, Money, parseMoney } from '@mp/billing-domain';
import type { ValueTransformer } from 'typeorm';

/** numeric(…,4) columns read and written as exact Money, never as a JavaScript float. */
export const moneyTransformer: ValueTransformer = {
  to: (value: Money | null | undefined) => (value === null || value === undefined ? value : formatMoney(value)),
  from: (value: string | null) => (value === null ? null : parseMoney(value)),
};
