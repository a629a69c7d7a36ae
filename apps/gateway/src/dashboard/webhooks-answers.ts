import type { WebhookSecretView } from '@mp/accounts';
import type { WebhookDeliveryView } from '@mp/webhooks-data-access';
import type { WebhookDeliveryDto, WebhookSecretDto } from './webhooks.dto';

const iso = (at: Date | null) => (at === null ? null : at.toISOString());

export function secretAnswer(view: WebhookSecretView): WebhookSecretDto {
  return { secret: view.secret, rotated_at: iso(view.rotatedAt), previous_expires_at: iso(view.previousExpiresAt) };
}

export function deliveryAnswer(delivery: WebhookDeliveryView): WebhookDeliveryDto {
  return {
    id: delivery.id,
    event_type: delivery.eventType,
    url: delivery.url,
    status: delivery.status,
    attempt_count: delivery.attemptCount,
    next_attempt_at: iso(delivery.nextAttemptAt),
    last_error: delivery.lastError,
    created_at: delivery.createdAt.toISOString(),
    delivered_at: iso(delivery.deliveredAt),
    dead_at: iso(delivery.deadAt),
    attempts: delivery.attempts.map((attempt) => ({
      attempt: attempt.attempt,
      status_code: attempt.statusCode,
      error: attempt.error,
      duration_ms: attempt.durationMs,
      attempted_at: attempt.attemptedAt.toISOString(),
      resend: attempt.resend,
    })),
  };
}
