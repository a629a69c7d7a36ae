import { ApiProperty } from '@nestjs/swagger';
import { LEDGER_KINDS } from '@mp/billing';
import { IsOptional, IsString } from 'class-validator';
import { Integer, Money, Nested, NullableText, OneOf, Text, Timestamp } from '../openapi/schema-properties';

// The answers and the one body of the console's billing page (docs/dashboard-api.json).

const NullableMoney = (description: string) =>
  ApiProperty({ type: 'number', nullable: true, example: 25, description: `${description} (exact, at most 4 decimals)` });

export class BillingBalanceDto {
  @Money('The balance') balance: number;
  @Text({ example: 'EUR', description: 'ISO 4217' }) currency: string;
  @NullableMoney('The low-balance warning threshold; null: none') low_balance_threshold: number | null;
  @ApiProperty({ type: Boolean, description: 'Whether the balance is below the threshold (compared exactly)' }) low_balance: boolean;
}

export class LedgerEntryDto {
  @Integer() id: number;
  @Timestamp() created_at: string;
  @OneOf([...LEDGER_KINDS]) kind: string;
  @Money('Signed: a charge is negative') amount: number;
  @Money('The balance right after it') balance_after: number;
  @NullableText({ example: 'otp:0b8f…', description: 'What it was for: `message:<id>`, `otp:<id>`, a request id…' }) reference: string | null;
  @NullableText() description: string | null;
}

export class LedgerPageDto {
  @Nested([LedgerEntryDto]) items: LedgerEntryDto[];
  @NullableText({ description: 'Pass it as `cursor` for the next (older) page; null on the last' }) next_cursor: string | null;
}

export class SpendDayDto {
  @Text({ example: '2026-11-26', description: 'UTC day, YYYY-MM-DD' }) day: string;
  @Money('Charged') charged: number;
  @Money('Refunded') refunded: number;
  @Money('Charged less refunded') spent: number;
}

export class SpendDto {
  @Timestamp('Start of the range (inclusive)') from: string;
  @Timestamp('End of the range (exclusive)') to: string;
  @Nested([SpendDayDto], { description: 'Every UTC day of the range, oldest first' }) days: SpendDayDto[];
}

export class BillingSettingsDto {
  @NullableMoney('The console warns while the balance is below it; null: never') low_balance_threshold: number | null;
  @Text({ example: 'EUR', description: 'ISO 4217: the currency of the threshold and the balance' }) currency: string;
}

export class BillingSettingsRequestDto {
  @ApiProperty({
    type: String,
    nullable: true,
    required: false,
    example: '25.00',
    description: 'The warning threshold as decimal text, zero or more, at most 4 decimals; null or absent: none (the settings are replaced whole)',
  })
  @IsString({ message: 'low_balance_threshold must be an amount as text such as "25" or "7.5", or null' })
  @IsOptional()
  low_balance_threshold?: string;
}
