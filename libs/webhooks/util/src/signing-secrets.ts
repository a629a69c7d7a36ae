/** A company's signing secrets: the current one, and the one it replaced while their overlap lasts. */
export interface WebhookSigningSecrets {
  current: string;
  previous: string | null;
  /** When the previous secret stops signing; null when there is none. */
  previousExpiresAt: Date | null;
}

/**
 * The secrets a delivery attempted at `now` is signed with, current first: the previous secret
 * too while its overlap lasts (up to, not at, its expiry), so a receiver that still knows only
 * the old secret, or already only the new one, verifies the same request.
 */
export function secretsSigningAt(secrets: WebhookSigningSecrets, now: Date): string[] {
  const previousLasts =
    secrets.previous !== null &&
    secrets.previous !== secrets.current &&
    secrets.previousExpiresAt !== null &&
    now.getTime() < secrets.previousExpiresAt.getTime();
  return previousLasts && secrets.previous !== null ? [secrets.current, secrets.previous] : [secrets.current];
}
