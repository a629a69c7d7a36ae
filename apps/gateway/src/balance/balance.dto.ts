import { ApiProperty } from '@nestjs/swagger';

export class BalanceDto {
  @ApiProperty({ example: 10.035, description: 'Current balance, exact to 4 decimals' })
  balance: number;

  @ApiProperty({ example: 'EUR', description: 'ISO 4217 currency of the balance and of every cost' })
  currency: string;
}

export class BalanceResponseDto {
  @ApiProperty({ example: 'success' })
  status: 'success';

  @ApiProperty({ example: 'Balance retrieved' })
  message: string;

  @ApiProperty({ type: BalanceDto })
  data: BalanceDto;
}
