import { InsufficientBalanceError, LedgerRepository } from '@mp/billing';
import type { Money } from '@mp/billing-domain';
import type { DataSource, EntityManager } from 'typeorm';
import { OtpNotAffordableError } from './otp-errors';

/** Charges an OTP send or resend once (the reference is unique); returns the balance after it. */
export async function chargeOtp(db: DataSource, manager: EntityManager, companyId: string, cost: Money, reference: string): Promise<Money> {
  try {
    return await new LedgerRepository(db).apply({ companyId, kind: 'charge', amount: -cost, reference, description: 'OTP' }, manager);
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new OtpNotAffordableError(error.balance, cost);
    throw error;
  }
}
