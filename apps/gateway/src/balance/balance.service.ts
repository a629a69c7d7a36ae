import { Injectable } from '@nestjs/common';
import { LedgerRepository } from '@mp/billing';
import { moneyToJson } from '@mp/billing-domain';
import type { BalanceDto } from './balance.dto';

@Injectable()
export class BalanceService {
  constructor(private readonly ledger: LedgerRepository) {}

  /** The company's balance; a company always has a balance row, opened with the company. */
  async forCompany(companyId: string): Promise<BalanceDto> {
    const found = await this.ledger.findBalanceWithCurrency(companyId);
    if (!found) throw new Error(`company ${companyId} has no balance row`);
    return { balance: moneyToJson(found.balance), currency: found.currency };
  }
}
