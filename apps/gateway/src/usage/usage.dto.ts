import { Integer, Money, Nested, NullableText, SuccessEnvelopeDto, Text } from '../openapi/schema-properties';
import { LedgerPageDto } from '../dashboard/billing.dto';

export class UsageTotalsDto {
  @Integer({ description: 'Messages made in the range (OTP and campaign messages included)' }) messages: number;
  @Integer({ description: 'Their SMS parts' }) parts: number;
  @Money('What they were charged') charged: number;
  @Money('Refunded of it') refunded: number;
  @Money('Charged less refunded') spent: number;
}

export class UsageLineDto extends UsageTotalsDto {
  @NullableText({
    example: '2026-11-26',
    description: 'The group: a UTC day `YYYY-MM-DD`, a country (ISO 3166-1 alpha-2; null for a non-geographic number) or a route',
  })
  key: string | null;
}

export class UsageDto {
  @Text({ example: 'day', description: '`day`, `country` or `route`' }) group_by: string;
  @Text({ format: 'date-time', description: 'The range’s start (inclusive)' }) date_from: string;
  @Text({ format: 'date-time', description: 'The range’s end (exclusive)' }) date_to: string;
  @Nested([UsageLineDto], { description: 'Groups with messages, by key (null last)' }) lines: UsageLineDto[];
  @Nested(UsageTotalsDto, { description: 'The sum of the lines, exact' }) total: UsageTotalsDto;
}

export class UsageResponseDto extends SuccessEnvelopeDto {
  @Nested(UsageDto) data: UsageDto;
}

export class UsageLedgerResponseDto extends SuccessEnvelopeDto {
  @Nested(LedgerPageDto) data: LedgerPageDto;
}
