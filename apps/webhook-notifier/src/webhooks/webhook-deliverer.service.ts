import { Injectable, Logger } from '@nestjs/common';
import { PlatformMetrics } from '@mp/metrics';
import { failSpan, inSpan, SpanKind } from '@mp/observability';
import { QueueName } from '@mp/queue-contracts';
import { ATTR_HTTP_RESPONSE_STATUS_CODE, ATTR_SERVER_ADDRESS } from '@opentelemetry/semantic-conventions';
import { QueueProducer } from '@mp/queue-runtime';
import { postWebhook, secretsSigningAt, signWebhook, type WebhookAttemptResult } from '@mp/webhooks';
import { WebhookDeliveryRepository, type WebhookAttemptOutcome, type WebhookDeliveryToSend } from '@mp/webhooks-data-access';
import { UnrecoverableError } from 'bullmq';
import type { Counter, Histogram } from 'prom-client';
import { WebhookNotifierEnv } from '../webhook-notifier.env';
import { attemptOfJob, deliverJobId, remainingDelayMs, retryDelayAfterFailure } from './delivery-schedule';
import { serializeEvent } from './webhook-body';

export type DeliverResult =
  { attempt: number; outcome: WebhookAttemptOutcome['status'] } | { skipped: 'delivered' | 'dead' | 'already attempted' | 'recorded elsewhere' };

/**
 * Makes the next attempt of a delivery: signs (with the company's current secret, and the one it
 * replaced while their overlap lasts), POSTs, records, then re-enqueues itself with the
 * retry schedule's delay, or dead-letters: after the schedule's last attempt, after the one
 * attempt a resend from the console asked for, or at once when the
 * address guard refused the URL or an address its host resolves to (no retry can pass it; the
 * refusal is the delivery's last error and its attempt's). Errors of our own infrastructure
 * (database, Redis) throw, so BullMQ retries the job; a receiver's failure is an attempt, never a
 * thrown error.
 */
@Injectable()
export class WebhookDeliverer {
  private readonly logger = new Logger('WebhookDeliverer');
  private readonly attempts: Counter<'outcome'>;
  private readonly attemptDuration: Histogram<'outcome'>;
  private readonly deadLetters: Counter;

  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly producer: QueueProducer,
    private readonly config: WebhookNotifierEnv,
    metrics: PlatformMetrics,
  ) {
    this.attempts = metrics.counter('mp_webhook_attempts_total');
    this.attemptDuration = metrics.histogram('mp_webhook_attempt_duration_seconds');
    this.deadLetters = metrics.counter('mp_webhook_dead_letters_total');
  }

  async deliver(deliveryId: string, jobId: string): Promise<DeliverResult> {
    const delivery = await this.deliveries.findToSend(deliveryId);
    if (!delivery) throw new UnrecoverableError(`webhook delivery ${deliveryId} does not exist`);
    if (delivery.status !== 'pending') return { skipped: delivery.status };
    const attempt = delivery.attempts + 1;
    const scheduledFor = attemptOfJob(jobId, deliveryId) ?? attempt;
    if (scheduledFor < attempt) {
      // This job's attempt is recorded; it is being retried because enqueueing the next one failed.
      await this.enqueue(deliveryId, attempt, remainingDelayMs(delivery.nextAttemptAt));
      return { skipped: 'already attempted' };
    }
    const result = await this.attemptTraced(delivery, attempt);
    const outcome = this.outcomeOf(result, attempt, delivery.resendAttempt);
    const recorded = await this.deliveries.recordAttempt(
      deliveryId,
      { attempt, statusCode: result.status, error: result.error, durationMs: result.durationMs, responseSnippet: result.responseSnippet },
      outcome,
    );
    if (!recorded) return { skipped: 'recorded elsewhere' };
    this.count(result, outcome);
    if (outcome.status === 'pending') await this.enqueue(deliveryId, attempt + 1, outcome.retryDelayMs);
    if (outcome.status === 'dead') {
      this.logger.warn({
        msg: 'webhook delivery dead-lettered',
        deliveryId,
        url: delivery.url,
        attempts: attempt,
        lastError: result.error,
        refused: result.permanent,
      });
    }
    return { attempt, outcome: outcome.status };
  }

  /** attempt, in a span of its own while tracing. */
  private attemptTraced(delivery: WebhookDeliveryToSend, attempt: number): Promise<WebhookAttemptResult> {
    const attributes = { 'webhook.delivery_id': delivery.id, 'webhook.attempt': attempt, [ATTR_SERVER_ADDRESS]: hostOf(delivery.url) };
    return inSpan('webhook POST', { kind: SpanKind.CLIENT, attributes }, async (span) => {
      const result = await this.attempt(delivery);
      if (result.status !== null) span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, result.status);
      if (!result.ok) failSpan(span, new Error(result.error ?? `answered ${result.status}`));
      return result;
    });
  }

  private count(result: WebhookAttemptResult, outcome: WebhookAttemptOutcome): void {
    const label = attemptLabel(result);
    this.attempts.inc({ outcome: label });
    this.attemptDuration.observe({ outcome: label }, result.durationMs / 1000);
    if (outcome.status === 'dead') this.deadLetters.inc();
  }

  private async attempt(delivery: WebhookDeliveryToSend): Promise<WebhookAttemptResult> {
    const body = serializeEvent(delivery.payload);
    const now = new Date();
    // While a rotation's overlap lasts, the old secret signs beside the new one (two v1 signatures).
    const secrets = secretsSigningAt(
      { current: delivery.webhookSecret, previous: delivery.previousWebhookSecret, previousExpiresAt: delivery.previousWebhookSecretExpiresAt },
      now,
    );
    let headers: Record<string, string>;
    try {
      headers = { ...signWebhook({ secret: secrets, id: delivery.id, timestamp: now, body }) };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, status: null, durationMs: 0, error: `not signed: ${reason}`, responseSnippet: null, permanent: false };
    }
    return postWebhook({
      url: delivery.url,
      body,
      headers,
      policy: { allowLoopback: this.config.WEBHOOK_ALLOW_LOOPBACK, allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE },
      timeoutMs: this.config.WEBHOOK_TIMEOUT_MS,
    });
  }

  private outcomeOf(result: WebhookAttemptResult, attempt: number, resendAttempt: number | null): WebhookAttemptOutcome {
    if (result.ok) return { status: 'delivered' };
    if (result.permanent) return { status: 'dead' };
    const delay = retryDelayAfterFailure(attempt, resendAttempt, this.config.WEBHOOK_RETRY_SCALE);
    return delay === null ? { status: 'dead' } : { status: 'pending', retryDelayMs: delay };
  }

  private enqueue(deliveryId: string, attempt: number, delayMs: number): Promise<void> {
    return this.producer.enqueue(QueueName.WebhookDeliver, 'webhook.deliver', { deliveryId }, { jobId: deliverJobId(deliveryId, attempt), delayMs });
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** The `outcome` of mp_webhook_attempts_total: `refused` when the address guard refused the URL (never retried). */
export function attemptLabel(result: WebhookAttemptResult): 'delivered' | 'failed' | 'refused' {
  if (result.ok) return 'delivered';
  return result.permanent ? 'refused' : 'failed';
}
