import { HttpStatus, Injectable } from '@nestjs/common';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { LedgerMetrics, PlatformMetrics } from '@mp/metrics';
import { CampaignAcceptanceService, CampaignEmptyError, CampaignNotAffordableError, type AcceptedCampaign } from '@mp/messaging';
import { INVALID_PHONE_NUMBER } from '@mp/messaging-domain';
import { GatewayEnv } from '../gateway.env';
import { PriceBook } from '../pricing/price-book.service';
import { SenderPolicy } from '../senders/sender-policy.service';
import { StatusCallbacks } from '../senders/status-callbacks.service';
import { resolveBulkRequest, type SmsBulkRequest } from './sms-bulk-request';
import { webhookPolicyOf } from './sms-request';

/** Messages a dispatcher submits per second, for the rough delivery estimate a response gives. */
const ASSUMED_RATE_PER_MINUTE = 60_000;

/** POST /sms/send-bulk: one campaign, charged once, stored as batches. */
@Injectable()
export class SmsBulkService {
  private readonly ledgerMetrics: LedgerMetrics;

  constructor(
    private readonly campaigns: CampaignAcceptanceService,
    private readonly priceBook: PriceBook,
    private readonly config: GatewayEnv,
    metrics: PlatformMetrics,
    private readonly senders: SenderPolicy,
    private readonly statusCallbacks: StatusCallbacks,
  ) {
    this.ledgerMetrics = new LedgerMetrics(metrics);
  }

  async send(companyId: string, body: unknown) {
    const resolved = resolveBulkRequest(body, { webhookPolicy: webhookPolicyOf(this.config) });
    if (!resolved.ok) throw new ApiError(HttpStatus.BAD_REQUEST, resolved.error);
    const request = resolved.value;
    await this.senders.checkAll(companyId, sendersOf(request));
    let accepted: AcceptedCampaign;
    try {
      accepted = await this.campaigns.accept(
        {
          companyId,
          sender: request.sender,
          priority: request.priority,
          reference: request.reference,
          webhookUrl: await this.statusCallbacks.addressFor(companyId, request.webhookUrl),
          batchSize: request.batchSize,
          delayBetweenBatchesS: request.delayBetweenBatchesS,
          scheduledAt: request.scheduledAt,
          input: request.input,
        },
        await this.priceBook.rules(),
      );
    } catch (error) {
      throw mapCampaignError(error);
    }
    this.ledgerMetrics.debited('campaign', accepted.plan.totalCost);
    return { status: 'success' as const, message: 'Bulk SMS campaign accepted', data: campaignData(request, accepted) };
  }
}

/** The campaign's sender and each other one its messages name. */
function sendersOf(request: SmsBulkRequest): Set<string> {
  const senders = new Set([request.sender]);
  if (request.input.mode === 2) for (const message of request.input.messages) if (typeof message.from === 'string') senders.add(message.from.trim());
  return senders;
}

/** Shape A (totals) when every batch is released at once; shape B (per batch) when spaced or scheduled. */
function campaignData(request: SmsBulkRequest, accepted: AcceptedCampaign) {
  const { plan } = accepted;
  const failedNumbers = plan.failedNumbers;
  const totals = {
    campaign_id: accepted.campaignId,
    total_recipients: plan.total,
    successful: plan.accepted,
    failed: failedNumbers.length,
    duplicates: plan.duplicates,
    total_cost: moneyToJson(plan.totalCost),
    balance: moneyToJson(accepted.balance),
  };
  if (request.delayBetweenBatchesS > 0 || request.scheduledAt !== null) {
    const status = request.scheduledAt ? 'scheduled' : 'queued';
    return {
      ...totals,
      batches: accepted.batches.map((b) => ({ batch_id: b.batchId, recipients: b.recipients, status, scheduled_time: b.scheduledAt.toISOString() })),
      failed_numbers: failedNumbers,
    };
  }
  const minutes = Math.max(1, Math.ceil(plan.accepted / ASSUMED_RATE_PER_MINUTE));
  return {
    ...totals,
    batches: accepted.batches.length,
    estimated_delivery_time: `${minutes}-${minutes * 2} minutes`,
    summary: { queued: plan.accepted, processing: 0, sent: 0, delivered: 0, failed: 0 },
    failed_numbers: failedNumbers,
  };
}

function mapCampaignError(error: unknown): unknown {
  if (error instanceof CampaignNotAffordableError) {
    return new ApiError(HttpStatus.PAYMENT_REQUIRED, 'Insufficient balance', {
      balance: moneyToJson(error.balance),
      required: moneyToJson(error.required),
      recipients: error.recipients,
    });
  }
  if (error instanceof CampaignEmptyError) {
    const onlyBadNumbers = error.failedNumbers.every((f) => f.error === INVALID_PHONE_NUMBER);
    return new ApiError(HttpStatus.BAD_REQUEST, onlyBadNumbers ? INVALID_PHONE_NUMBER : 'No entry can be sent', { failed_numbers: error.failedNumbers });
  }
  return error;
}
