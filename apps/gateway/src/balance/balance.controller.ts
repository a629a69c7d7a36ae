import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, type Principal } from '../auth/principal';
import { BalanceResponseDto } from './balance.dto';
import { BalanceService } from './balance.service';

@ApiTags('account')
@Controller('balance')
export class BalanceController {
  constructor(private readonly balances: BalanceService) {}

  @Get()
  @ApiOperation({ summary: "The calling company's balance and currency" })
  @ApiOkResponse({ type: BalanceResponseDto, description: 'The balance' })
  async get(@CurrentPrincipal() principal: Principal): Promise<BalanceResponseDto> {
    return { status: 'success', message: 'Balance retrieved', data: await this.balances.forCompany(principal.companyId) };
  }
}
