import { Nested, Money, SuccessEnvelopeDto, Text } from '../openapi/schema-properties';

export class BalanceDto {
  @Money('Current balance', { example: 10.035 })
  balance: number;

  @Text({ example: 'EUR', description: 'ISO 4217 currency of the balance and of every cost' })
  currency: string;
}

export class BalanceResponseDto extends SuccessEnvelopeDto {
  @Nested(BalanceDto)
  data: BalanceDto;
}
