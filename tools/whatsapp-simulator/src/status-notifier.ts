import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { hubSignature, type StatusName, statusWebhookBody, type StatusUpdate, UNDELIVERABLE } from './status-webhook';

export interface StatusNotifierOptions {
  /** Where statuses are posted; empty = nowhere. */
  webhookUrl: string;
  appSecret: string;
  /** Wait before each status. */
  statusDelayMs: number;
  /** Fraction (0..1) of messages whose second status is `failed`. */
  failureRate: number;
  /** Tries per status before giving up; the wait between tries starts at retryDelayMs and doubles. */
  webhookAttempts: number;
  retryDelayMs: number;
  /** How long one POST may take. */
  webhookTimeoutMs: number;
  random: () => number;
  logger: Logger;
}

export interface SentMessage {
  messageId: string;
  phoneNumberId: string;
  /** Digits without '+'. */
  to: string;
}

/** Posts each accepted message's statuses (sent, then delivered or failed) to the webhook, retrying each a few times. */
export class StatusNotifier {
  private readonly stopping = new AbortController();
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly options: StatusNotifierOptions) {}

  /** Starts posting the message's statuses in the background; returns at once. */
  notify(message: SentMessage): void {
    if (this.options.webhookUrl === '') return;
    const outcome: StatusName = this.options.random() < this.options.failureRate ? 'failed' : 'delivered';
    const run = this.postStatuses(message, outcome).catch((error: unknown) => {
      if (!this.stopping.signal.aborted) this.options.logger.warn({ event: 'webhook_error', error: String(error) });
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Abandons every status not yet posted. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.pending]);
  }

  private async postStatuses(message: SentMessage, outcome: StatusName): Promise<void> {
    for (const status of ['sent', outcome] as const) {
      await sleep(this.options.statusDelayMs, undefined, { signal: this.stopping.signal });
      await this.post({
        messageId: message.messageId,
        status,
        phoneNumberId: message.phoneNumberId,
        recipientId: message.to,
        at: new Date(),
        ...(status === 'failed' ? { errors: [UNDELIVERABLE] } : {}),
      });
    }
  }

  /** Posts one status until the receiver answers 2xx or the tries run out. */
  private async post(update: StatusUpdate): Promise<void> {
    const { webhookUrl, webhookAttempts, retryDelayMs, logger } = this.options;
    const body = JSON.stringify(statusWebhookBody(update));
    const context = { messageId: update.messageId, status: update.status };
    for (let attempt = 1; attempt <= webhookAttempts; attempt += 1) {
      const outcome = await this.attempt(body);
      if (outcome === 'ok') {
        logger.debug({ event: 'webhook_delivered', ...context, attempt });
        return;
      }
      logger.debug({ event: 'webhook_attempt_failed', ...context, attempt, outcome });
      if (attempt < webhookAttempts) await sleep(retryDelayMs * 2 ** (attempt - 1), undefined, { signal: this.stopping.signal });
    }
    logger.warn({ event: 'webhook_given_up', ...context, url: webhookUrl, attempts: webhookAttempts });
  }

  /** 'ok', or why not: the HTTP status, or the network error. */
  private async attempt(body: string): Promise<string> {
    const { webhookUrl, appSecret, webhookTimeoutMs } = this.options;
    try {
      const response = await fetch(webhookUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Hub-Signature-256': hubSignature(body, appSecret) },
        body,
        signal: AbortSignal.any([this.stopping.signal, AbortSignal.timeout(webhookTimeoutMs)]),
      });
      await response.arrayBuffer().catch(() => undefined);
      return response.ok ? 'ok' : `HTTP ${response.status}`;
    } catch (error) {
      if (this.stopping.signal.aborted) throw error;
      return error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error);
    }
  }
}
