import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { receiptOfStatus, statusesOf, verifyHubSignature } from '@mp/carrier';
import { ApiError } from '@mp/http-kit';
import { DispatchStore } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { timingSafeEqual } from 'node:crypto';
import { GatewayEnv } from '../gateway.env';

/**
 * Meta's status webhooks for messages sent through the WhatsApp Cloud API: each delivered, read
 * or failed status is applied as the carrier receipt of the message with that Cloud API id, the
 * way SMPP receipts are (stored first, applied once, early ones kept for their message).
 */
@Injectable()
export class WhatsAppWebhookService {
  private readonly logger = new Logger('WhatsAppWebhook');

  constructor(
    private readonly store: DispatchStore,
    private readonly relay: OutboxRelay,
    private readonly config: GatewayEnv,
  ) {}

  /** The subscription handshake: echo the challenge when the verify token is ours. */
  handshake(mode: string | undefined, token: string | undefined, challenge: string | undefined): string {
    if (mode !== 'subscribe' || !token || !sameText(token, this.config.WHATSAPP_VERIFY_TOKEN) || !challenge) {
      throw new ApiError(HttpStatus.FORBIDDEN, 'Verification failed');
    }
    return challenge;
  }

  async receive(rawBody: string | undefined, signature: string | undefined, body: unknown): Promise<{ applied: number }> {
    if (rawBody === undefined || !verifyHubSignature(this.config.WHATSAPP_APP_SECRET, rawBody, signature)) {
      throw new ApiError(HttpStatus.UNAUTHORIZED, 'Invalid X-Hub-Signature-256');
    }
    const receipts = statusesOf(body).flatMap((status) => receiptOfStatus(status) ?? []);
    if (receipts.length === 0) return { applied: 0 };
    const { transitions, outbox } = await this.store.applyReceipts(receipts);
    if (outbox.jobs.length > 0) await this.relay.relay(outbox.ids, outbox.jobs);
    this.logger.debug({ msg: 'WhatsApp statuses applied', statuses: receipts.length, settled: transitions.length });
    return { applied: receipts.length };
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
