/**
 * Rotating a company's webhook signing secret: the new secret signs at once, and the old one
 * keeps signing beside it (a second `v1,` signature in `webhook-signature`) until the overlap
 * ends, so a receiver can switch to the new secret at any time within it.
 */
export const WEBHOOK_SECRET_OVERLAP_SECONDS = Object.freeze({
  /** A day: time for a receiver's deployment to take the new secret. */
  default: 24 * 3600,
  /** None: the old secret stops at once (it leaked). */
  min: 0,
  /** A week at most: an old secret should not live on. */
  max: 7 * 24 * 3600,
});

export class WebhookSecretOverlapError extends Error {
  constructor() {
    super(`overlap_seconds must be an integer from ${WEBHOOK_SECRET_OVERLAP_SECONDS.min} to ${WEBHOOK_SECRET_OVERLAP_SECONDS.max}`);
    this.name = 'WebhookSecretOverlapError';
  }
}

/** The overlap asked for (the default when none), or WebhookSecretOverlapError when out of bounds. */
export function webhookSecretOverlap(requested: number | undefined): number {
  if (requested === undefined) return WEBHOOK_SECRET_OVERLAP_SECONDS.default;
  if (!Number.isInteger(requested) || requested < WEBHOOK_SECRET_OVERLAP_SECONDS.min || requested > WEBHOOK_SECRET_OVERLAP_SECONDS.max) {
    throw new WebhookSecretOverlapError();
  }
  return requested;
}
