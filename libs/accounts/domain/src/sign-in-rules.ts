/**
 * Failed sign-ins allowed per rolling window: past them, sign-ins to that account, or from that
 * address, are refused, right password or wrong, until the oldest failure in the window is
 * `windowMs` old. A success is not counted.
 */
export const SIGN_IN_FAILURE_LIMITS = { windowMs: 15 * 60_000, perAccount: 5, perAddress: 20 } as const;

/** What a refused sign-in says: whose failures locked it and when to try again, in whole minutes. */
export function signInLockedMessage(by: 'account' | 'address', retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const whose = by === 'account' ? 'for this account' : 'from this address';
  return `Too many failed sign-ins ${whose}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** An invitation link works once, for 7 days. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;

export type InvitationState = 'pending' | 'accepted' | 'expired';

export function invitationState(invitation: { expiresAt: Date; acceptedAt: Date | null }, now: Date): InvitationState {
  if (invitation.acceptedAt !== null) return 'accepted';
  return now.getTime() >= invitation.expiresAt.getTime() ? 'expired' : 'pending';
}
