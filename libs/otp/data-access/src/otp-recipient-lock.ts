import { blockLookbackStart, blockUntil, retryAfterSeconds } from '@mp/otp-domain';
import { lockKeysInOrder } from '@mp/persistence';
import type { EntityManager } from 'typeorm';
import { OtpBlockedError } from './otp-errors';

/**
 * Serialises the sends and verifications of one recipient of one application, so that concurrent
 * wrong codes are all counted and a block cannot be slipped past by arriving at the same moment.
 */
export async function lockRecipient(manager: EntityManager, applicationId: string, recipient: string): Promise<void> {
  await lockKeysInOrder(manager, [recipientLockKey(applicationId, recipient)]);
}

/** The advisory lock key of one recipient of one application (sends lock many of them at once). */
export function recipientLockKey(applicationId: string, recipient: string): string {
  return `otp:${applicationId}:${recipient}`;
}

/** When the recipient's block ends, or null when there is none; counted from the wrong codes recorded. */
export async function recipientBlockedUntil(manager: EntityManager, applicationId: string, recipient: string, now: Date): Promise<Date | null> {
  const rows: { created_at: Date }[] = await manager.query(
    `SELECT created_at FROM otp_attempts
     WHERE application_id = $1 AND recipient = $2 AND outcome = 'invalid_code' AND created_at >= $3`,
    [applicationId, recipient, blockLookbackStart(now)],
  );
  return blockUntil(
    rows.map((row) => new Date(row.created_at)),
    now,
  );
}

/** Locks the recipient, then refuses it while blocked. */
export async function refuseIfBlocked(manager: EntityManager, applicationId: string, recipient: string, now: Date): Promise<void> {
  await lockRecipient(manager, applicationId, recipient);
  const until = await recipientBlockedUntil(manager, applicationId, recipient, now);
  if (until) throw new OtpBlockedError(until, retryAfterSeconds(until, now));
}
