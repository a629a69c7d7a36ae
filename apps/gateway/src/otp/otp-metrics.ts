import { LedgerMetrics, type PlatformMetrics } from '@mp/metrics';
import type { OtpSent, VerifyOutcome } from '@mp/otp';
import type { Counter } from 'prom-client';

/** The `result` label of mp_otp_verifications_total for each verify outcome. */
const RESULTS: Readonly<Record<VerifyOutcome['outcome'], string>> = {
  verified: 'verified',
  invalid_code: 'wrong_code',
  expired: 'expired',
  blocked: 'blocked',
  not_found: 'not_found',
  already_verified: 'already_verified',
  failed: 'failed',
  no_longer_valid: 'no_longer_valid',
};

/** OTPs sent (and charged) and verify attempts, counted once the service has the outcome. */
export class OtpMetrics {
  private readonly sentTotal: Counter<'channel'>;
  private readonly verifications: Counter<'result'>;
  private readonly blocked: Counter;
  private readonly ledger: LedgerMetrics;

  constructor(metrics: PlatformMetrics) {
    this.sentTotal = metrics.counter('mp_otp_sent_total');
    this.verifications = metrics.counter('mp_otp_verifications_total');
    this.blocked = metrics.counter('mp_otp_blocked_total');
    this.ledger = new LedgerMetrics(metrics);
  }

  sent(sent: OtpSent): void {
    this.sentTotal.inc({ channel: sent.channel });
    this.ledger.debited('otp', sent.cost);
  }

  verified(outcome: VerifyOutcome): void {
    this.verifications.inc({ result: RESULTS[outcome.outcome] });
    // The wrong code that used up the last attempt blocks the recipient (OtpVerifier.wrongCode).
    if (outcome.outcome === 'invalid_code' && outcome.attemptsRemaining === 0) this.blocked.inc();
  }
}
