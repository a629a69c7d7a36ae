import { HttpStatus, Injectable } from '@nestjs/common';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError, valueOrBadRequest } from '@mp/http-kit';
import { LedgerMetrics, PlatformMetrics } from '@mp/metrics';
import { CampaignCancellationService, CampaignViews } from '@mp/messaging';
import { QueueName } from '@mp/queue-contracts';
import { OutboxRelay } from '@mp/queue-runtime';
import { parseCampaignListQuery, parseCampaignRecipientsQuery } from './campaigns-query';

const NOT_FOUND = 'Campaign not found';

/** GET /sms/campaigns, /{id}, /{id}/messages and POST /{id}/cancel: every query scoped to the caller's company. */
@Injectable()
export class CampaignsService {
  private readonly ledgerMetrics: LedgerMetrics;

  constructor(
    private readonly views: CampaignViews,
    private readonly cancellation: CampaignCancellationService,
    private readonly relay: OutboxRelay,
    metrics: PlatformMetrics,
  ) {
    this.ledgerMetrics = new LedgerMetrics(metrics);
  }

  async find(companyId: string, campaignId: string) {
    const campaign = await this.views.find(companyId, campaignId);
    if (!campaign) throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
    return success('Campaign retrieved', campaign);
  }

  async list(companyId: string, query: unknown) {
    const { page, ...filter } = valueOrBadRequest(parseCampaignListQuery(query));
    return success('Campaigns', await this.views.list(companyId, filter, page));
  }

  async recipients(companyId: string, campaignId: string, query: unknown) {
    const { status, page } = valueOrBadRequest(parseCampaignRecipientsQuery(query));
    const found = await this.views.recipients(companyId, campaignId, status, page);
    if (!found) throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
    return success('Campaign messages', found);
  }

  async cancel(companyId: string, campaignId: string) {
    const result = await this.cancellation.cancel(companyId, campaignId);
    if (result.outcome === 'not-found') throw new ApiError(HttpStatus.NOT_FOUND, NOT_FOUND);
    if (result.outcome === 'nothing-to-cancel') {
      throw new ApiError(HttpStatus.CONFLICT, 'Nothing left to cancel: every batch of this campaign has started or was cancelled');
    }
    // Batches priced at nothing refund nothing, and write no ledger entry (CampaignCancellationService).
    if (result.refunded > 0n) this.ledgerMetrics.refunded('campaign', result.refunded);
    // The dispatcher would skip these jobs anyway; removing them only spares it the wake-up.
    await Promise.all(result.batchIds.map((batchId) => this.relay.removeJob(QueueName.CampaignDispatch, `batch-${batchId}`)));
    return success(result.campaignStatus === 'cancelled' ? 'Campaign cancelled and refunded' : 'Batches not yet started cancelled and refunded', {
      campaign_id: campaignId,
      status: result.campaignStatus,
      cancelled_batches: result.batchIds.length,
      cancelled_recipients: result.cancelledRecipients,
      refunded: moneyToJson(result.refunded),
      balance: moneyToJson(result.balance),
    });
  }
}

function success<T>(message: string, data: T) {
  return { status: 'success' as const, message, data };
}
