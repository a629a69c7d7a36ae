import { InsufficientBalanceError, type LedgerRepository } from '@mp/billing';
import type { Money } from '@mp/billing-domain';
import type { EntityManager } from 'typeorm';
import { OtpNotAffordableError } from './otp-errors';

/** Charges an OTP send or resend once (the reference is unique); returns the balance after it. */
export async function chargeOtp(ledger: LedgerRepository, manager: EntityManager, companyId: string, cost: Money, reference: string): Promise<Money> {
  try {
    return await ledger.apply({ companyId, kind: 'charge', amount: -cost, reference, description: 'OTP' }, manager);
  } catch (error) {
    if (error instanceof InsufficientBalanceError) throw new OtpNotAffordableError(error.balance, cost);
    throw error;
  }
}
