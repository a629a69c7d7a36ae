import type { CampaignCancellationService, CampaignViews } from '@mp/messaging';
import { PlatformMetrics } from '@mp/metrics';
import { QueueName } from '@mp/queue-contracts';
import type { OutboxRelay } from '@mp/queue-runtime';
import { refusal } from '../testing/api-refusal';
import { CampaignsService } from './campaigns.service';

const COMPANY = 'company-1';
const CAMPAIGN = '0195f7a2-0000-7000-8000-000000000001';

function service(views: Partial<CampaignViews>, cancellation: Partial<CampaignCancellationService> = {}) {
  const removed: [string, string][] = [];
  const relay = { removeJob: async (queue: string, jobId: string) => void removed.push([queue, jobId]) } as unknown as OutboxRelay;
  return {
    campaigns: new CampaignsService(
      views as CampaignViews,
      cancellation as CampaignCancellationService,
      relay,
      new PlatformMetrics('gateway', { defaultMetrics: false }),
    ),
    removed,
  };
}

describe('CampaignsService', () => {
  it("lists the company's campaigns with the filter and page of the query", async () => {
    const asked: unknown[] = [];
    const { campaigns } = service({ list: async (...args: unknown[]) => (asked.push(args), { items: [], page: 2, limit: 10, total: 0 }) });
    expect(await campaigns.list(COMPANY, { status: 'completed', page: '2', limit: '10' })).toEqual({
      status: 'success',
      message: 'Campaigns',
      data: { items: [], page: 2, limit: 10, total: 0 },
    });
    expect(asked).toEqual([[COMPANY, { status: 'completed', reference: null }, { page: 2, limit: 10 }]]);
  });

  it('refuses a query it cannot read (400) and a campaign the company does not have (404)', async () => {
    const { campaigns } = service({ find: async () => null, recipients: async () => null });
    expect(await refusal(campaigns.list(COMPANY, { status: 'lost' }))).toMatchObject({ status: 400 });
    expect(await refusal(campaigns.find(COMPANY, CAMPAIGN))).toEqual({ status: 404, body: { error: 'Campaign not found' } });
    expect(await refusal(campaigns.recipients(COMPANY, CAMPAIGN, {}))).toEqual({ status: 404, body: { error: 'Campaign not found' } });
  });

  it('cancels the batches not yet started, removes their jobs, and says whether the whole campaign is cancelled', async () => {
    const { campaigns, removed } = service(
      {},
      {
        cancel: async () => ({
          outcome: 'cancelled',
          batchIds: ['b1', 'b2'],
          cancelledRecipients: 7,
          refunded: 700n,
          balance: 5_000n,
          campaignStatus: 'processing',
        }),
      },
    );
    expect(await campaigns.cancel(COMPANY, CAMPAIGN)).toEqual({
      status: 'success',
      message: 'Batches not yet started cancelled and refunded',
      data: { campaign_id: CAMPAIGN, status: 'processing', cancelled_batches: 2, cancelled_recipients: 7, refunded: 0.07, balance: 0.5 },
    });
    expect(removed).toEqual([
      [QueueName.CampaignDispatch, 'batch-b1'],
      [QueueName.CampaignDispatch, 'batch-b2'],
    ]);
    const whole = service(
      {},
      { cancel: async () => ({ outcome: 'cancelled', batchIds: ['b1'], cancelledRecipients: 1, refunded: 0n, balance: 0n, campaignStatus: 'cancelled' }) },
    );
    expect((await whole.campaigns.cancel(COMPANY, CAMPAIGN)).message).toBe('Campaign cancelled and refunded');
  });

  it('answers 404 for a campaign it cannot find and 409 when every batch has started', async () => {
    expect(await refusal(service({}, { cancel: async () => ({ outcome: 'not-found' }) }).campaigns.cancel(COMPANY, CAMPAIGN))).toEqual({
      status: 404,
      body: { error: 'Campaign not found' },
    });
    const started = service({}, { cancel: async () => ({ outcome: 'nothing-to-cancel' }) });
    expect(await refusal(started.campaigns.cancel(COMPANY, CAMPAIGN))).toMatchObject({ status: 409 });
    expect(started.removed).toEqual([]);
  });
});
