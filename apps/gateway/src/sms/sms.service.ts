import { BeforeApplicationShutdown, HttpStatus, Injectable } from '@nestjs/common';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { LedgerMetrics, PlatformMetrics } from '@mp/metrics';
import {
  MessageCancellationService,
  MessageViews,
  NoPriceError,
  SendNotAffordableError,
  scheduledDispatchJobId,
  SmsAcceptanceService,
  SuppressionCheck,
  type BeforeCommit,
  type SmsAcceptance,
} from '@mp/messaging';
import { INVALID_PHONE_NUMBER, parseRecipients, SmsTextError } from '@mp/messaging-domain';
import { QueueName } from '@mp/queue-contracts';
import { OutboxRelay } from '@mp/queue-runtime';
import { GatewayEnv } from '../gateway.env';
import type { RecordPendingAnswer } from '../idempotency/idempotent-send.decorator';
import { PriceBook } from '../pricing/price-book.service';
import { SenderPolicy } from '../senders/sender-policy.service';
import { StatusCallbacks } from '../senders/status-callbacks.service';
import { withoutOptedOut } from './opted-out-recipients';
import { MAX_RECIPIENTS_PER_SEND, resolveSmsRequest, webhookPolicyOf, type SmsRequest } from './sms-request';
import { multiRecipientResponse, singleRecipientResponse } from './sms-responses';
import type { SmsSendDto } from './sms-send.dto';

@Injectable()
export class SmsService implements BeforeApplicationShutdown {
  private readonly ledgerMetrics: LedgerMetrics;

  constructor(
    private readonly acceptance: SmsAcceptanceService,
    private readonly cancellation: MessageCancellationService,
    private readonly views: MessageViews,
    private readonly priceBook: PriceBook,
    private readonly relay: OutboxRelay,
    private readonly config: GatewayEnv,
    private readonly suppression: SuppressionCheck,
    metrics: PlatformMetrics,
    private readonly senders: SenderPolicy,
    private readonly statusCallbacks: StatusCallbacks,
  ) {
    this.ledgerMetrics = new LedgerMetrics(metrics);
  }

  /** With recordPendingAnswer (an Idempotency-Key), the answer is recorded before the send commits, its balance left to its ledger charge. */
  async send(companyId: string, dto: SmsSendDto, recordPendingAnswer?: RecordPendingAnswer) {
    const request = this.resolve(dto);
    await this.senders.check(companyId, request.sender);
    const parsed = parseRecipients(request.recipients);
    if (parsed.total > MAX_RECIPIENTS_PER_SEND) {
      throw badRequest(`at most ${MAX_RECIPIENTS_PER_SEND} recipients per request; use POST /sms/send-bulk for more`);
    }
    if (parsed.valid.length === 0) {
      throw new ApiError(HttpStatus.BAD_REQUEST, INVALID_PHONE_NUMBER, parsed.total > 1 ? { failed_numbers: parsed.invalid } : {});
    }
    const list = await withoutOptedOut(this.suppression, companyId, request.sender, parsed);
    const respond = (accepted: SmsAcceptance) => (list.total === 1 ? singleRecipientResponse(request, accepted) : multiRecipientResponse(list, accepted));
    const beforeCommit: BeforeCommit | undefined =
      recordPendingAnswer &&
      (({ chargeReference, ...pending }) =>
        recordPendingAnswer({ body: respond({ ...pending, balance: 0n }), balancePath: ['data', 'balance'], chargeReference }));
    const accepted = await this.acceptance
      .accept(
        {
          companyId,
          sender: request.sender,
          route: request.route,
          body: request.message,
          recipients: list.valid.map((entry) => entry.e164),
          reference: request.reference,
          webhookUrl: await this.statusCallbacks.addressFor(companyId, request.webhookUrl),
          scheduledAt: request.scheduledAt,
        },
        await this.priceBook.rules(),
        beforeCommit,
      )
      .catch(mapAcceptanceError);
    this.ledgerMetrics.debited('sms', accepted.totalCost);
    return respond(accepted);
  }

  async find(companyId: string, messageId: string) {
    const view = await this.views.find(companyId, messageId);
    if (!view) throw new ApiError(HttpStatus.NOT_FOUND, 'Message not found');
    return { status: 'success' as const, message: 'Message retrieved', data: view };
  }

  async cancel(companyId: string, messageId: string) {
    const view = await this.views.find(companyId, messageId);
    if (!view) throw new ApiError(HttpStatus.NOT_FOUND, 'Message not found');
    const result = await this.cancellation.cancel(companyId, messageId);
    if (result.outcome === 'not-found') throw new ApiError(HttpStatus.NOT_FOUND, 'Message not found');
    if (result.outcome === 'not-cancellable') {
      throw new ApiError(HttpStatus.CONFLICT, `Only a scheduled message can be cancelled; this one is ${result.status}`, { status: result.status });
    }
    this.ledgerMetrics.refunded('sms', result.refunded);
    await this.relay.removeJob(QueueName.SmsDispatch, scheduledDispatchJobId(messageId));
    return {
      status: 'success' as const,
      message: 'Scheduled message cancelled and refunded',
      data: { message_id: messageId, status: 'cancelled', refunded: moneyToJson(result.refunded), balance: moneyToJson(result.balance) },
    };
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.acceptance.idle();
  }

  private resolve(dto: SmsSendDto): SmsRequest {
    const resolved = resolveSmsRequest(dto, { webhookPolicy: webhookPolicyOf(this.config) });
    if (!resolved.ok) throw badRequest(resolved.error);
    return resolved.value;
  }
}

function badRequest(error: string): ApiError {
  return new ApiError(HttpStatus.BAD_REQUEST, error);
}

function mapAcceptanceError(error: unknown): never {
  if (error instanceof SendNotAffordableError) {
    throw new ApiError(HttpStatus.PAYMENT_REQUIRED, 'Insufficient balance', {
      balance: moneyToJson(error.balance),
      cost: moneyToJson(error.cost),
    });
  }
  if (error instanceof SmsTextError) throw badRequest(error.message);
  if (error instanceof NoPriceError) throw badRequest(error.message);
  throw error;
}
