import type { OtpChannel } from '@mp/otp-domain';
import type { EntityManager } from 'typeorm';

/** Which OTP: by its verification id, or the newest pending one of a recipient of an application. */
export type OtpTarget = { verificationId: string } | { applicationId: string; recipient: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The OTP a target names, with what a check before a resend needs: where and how it goes. */
export interface FoundOtp {
  id: string;
  application_id: string;
  recipient: string;
  channel: OtpChannel;
  sender: string;
}

export async function findOtp(manager: EntityManager, companyId: string, target: OtpTarget): Promise<FoundOtp | null> {
  if ('verificationId' in target) {
    if (!UUID.test(target.verificationId)) return null;
    const rows = await manager.query(`SELECT id, application_id, recipient, channel, sender FROM otps WHERE id = $1 AND company_id = $2`, [
      target.verificationId,
      companyId,
    ]);
    return rows[0] ?? null;
  }
  // The newest pending OTP of the recipient; without one, the newest at all (to say why it no longer works).
  const rows = await manager.query(
    `SELECT id, application_id, recipient, channel, sender FROM otps WHERE application_id = $1 AND recipient = $2 AND company_id = $3
     ORDER BY (status = 'pending') DESC, created_at DESC LIMIT 1`,
    [target.applicationId, target.recipient, companyId],
  );
  return rows[0] ?? null;
}
