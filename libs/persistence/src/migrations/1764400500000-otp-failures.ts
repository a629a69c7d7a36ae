import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Why an OTP failed. Until now the only way to `failed` was the block after 3 wrong codes; an OTP
 * whose message the carrier did not deliver (or that never reached one) now fails too, and says
 * why: `failure_reason` (and the carrier's `error_code`, when it gave one). A `failed` OTP always
 * has a reason, any other none. The log gets the event `failed`.
 */
export class OtpFailures1764400500000 implements MigrationInterface {
  name = 'OtpFailures1764400500000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE otps ADD COLUMN failure_reason text, ADD COLUMN error_code text`);
    await db.query(`UPDATE otps SET failure_reason = 'too_many_attempts' WHERE status = 'failed'`);
    // NOT VALID, then VALIDATE: the check of existing rows does not hold writers back.
    await db.query(`
      ALTER TABLE otps ADD CONSTRAINT otps_failure_reason_check CHECK (
        (status = 'failed') = (failure_reason IS NOT NULL)
        AND failure_reason IN ('too_many_attempts', 'undelivered', 'rejected', 'expired', 'not_sent')
      ) NOT VALID`);
    await db.query(`ALTER TABLE otps VALIDATE CONSTRAINT otps_failure_reason_check`);
    await db.query(`ALTER TABLE otp_events DROP CONSTRAINT otp_events_event_check`);
    await db.query(`
      ALTER TABLE otp_events ADD CONSTRAINT otp_events_event_check
        CHECK (event IN ('sent', 'delivered', 'verified', 'failed_attempt', 'expired', 'resent', 'blocked', 'refused', 'failed')) NOT VALID`);
    await db.query(`ALTER TABLE otp_events VALIDATE CONSTRAINT otp_events_event_check`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM otp_events WHERE event = 'failed'`);
    await db.query(`ALTER TABLE otp_events DROP CONSTRAINT otp_events_event_check`);
    await db.query(`
      ALTER TABLE otp_events ADD CONSTRAINT otp_events_event_check
        CHECK (event IN ('sent', 'delivered', 'verified', 'failed_attempt', 'expired', 'resent', 'blocked', 'refused'))`);
    await db.query(`ALTER TABLE otps DROP CONSTRAINT otps_failure_reason_check, DROP COLUMN failure_reason, DROP COLUMN error_code`);
  }
}
