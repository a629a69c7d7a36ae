import { DEFAULT_PRICES } from '@mp/billing-domain';
import { CampaignEmptyError, CampaignNotAffordableError, type AcceptedCampaign, type CampaignAcceptanceService, type CampaignCommand } from '@mp/messaging';
import { INVALID_PHONE_NUMBER } from '@mp/messaging-domain';
import { PlatformMetrics } from '@mp/metrics';
import { GatewayEnv } from '../gateway.env';
import type { PriceBook } from '../pricing/price-book.service';
import { refusal } from '../testing/api-refusal';
import type { SenderPolicy } from '../senders/sender-policy.service';
import type { StatusCallbacks } from '../senders/status-callbacks.service';
import { SmsBulkService } from './sms-bulk.service';

const COMPANY = 'company-1';
const at = new Date('2026-11-22T10:00:00Z');

function accepted(batches: number): AcceptedCampaign {
  return {
    campaignId: 'campaign-1',
    plan: { total: 3, accepted: 2, duplicates: 0, failedNumbers: [{ number: '12', error: INVALID_PHONE_NUMBER }], batches: [], totalCost: 200n },
    balance: 9_800n,
    batches: Array.from({ length: batches }, (_, i) => ({
      batchId: `b${i + 1}`,
      position: i + 1,
      recipients: 1,
      scheduledAt: new Date(at.getTime() + i * 60_000),
    })),
  };
}

function service(answer: (command: CampaignCommand) => AcceptedCampaign | Error) {
  const commands: CampaignCommand[] = [];
  const campaigns = {
    accept: async (command: CampaignCommand) => {
      commands.push(command);
      const result = answer(command);
      if (result instanceof Error) throw result;
      return result;
    },
  } as unknown as CampaignAcceptanceService;
  const priceBook = { rules: async () => DEFAULT_PRICES } as unknown as PriceBook;
  return {
    bulk: new SmsBulkService(
      campaigns,
      priceBook,
      new GatewayEnv(),
      new PlatformMetrics('gateway', { defaultMetrics: false }),
      { checkAll: async () => undefined } as unknown as SenderPolicy,
      { addressFor: async (_: string, url: string | null) => url } as unknown as StatusCallbacks,
    ),
    commands,
  };
}

const request = { recipients: '+447911123456, +447911123457, 12', message: 'Spring sale', from: 'Acme' };

describe('SmsBulkService', () => {
  it('answers a campaign released at once with its totals, batch count and estimate (shape A)', async () => {
    const { bulk, commands } = service(() => accepted(1));
    const answer = await bulk.send(COMPANY, request);
    expect(commands[0]).toMatchObject({ companyId: COMPANY, sender: 'Acme', priority: 'normal', batchSize: 1000, delayBetweenBatchesS: 0, scheduledAt: null });
    expect(answer).toEqual({
      status: 'success',
      message: 'Bulk SMS campaign accepted',
      data: {
        campaign_id: 'campaign-1',
        total_recipients: 3,
        successful: 2,
        failed: 1,
        duplicates: 0,
        total_cost: 0.02,
        balance: 0.98,
        batches: 1,
        estimated_delivery_time: '1-2 minutes',
        summary: { queued: 2, processing: 0, sent: 0, delivered: 0, failed: 0 },
        failed_numbers: [{ number: '12', error: INVALID_PHONE_NUMBER }],
      },
    });
  });

  it('answers a spaced campaign with each batch and its time (shape B)', async () => {
    const { bulk } = service(() => accepted(2));
    const answer = await bulk.send(COMPANY, { ...request, batch_size: 1, delay_between_batches: 60 });
    expect(answer.data.batches).toEqual([
      { batch_id: 'b1', recipients: 1, status: 'queued', scheduled_time: '2026-11-22T10:00:00.000Z' },
      { batch_id: 'b2', recipients: 1, status: 'queued', scheduled_time: '2026-11-22T10:01:00.000Z' },
    ]);
  });

  it('answers 402 with the balance, what the campaign needs and its recipients', async () => {
    const { bulk } = service(() => new CampaignNotAffordableError(100n, 200n, 2));
    expect(await refusal(bulk.send(COMPANY, request))).toEqual({
      status: 402,
      body: { error: 'Insufficient balance', balance: 0.01, required: 0.02, recipients: 2 },
    });
  });

  it('answers 400 when no entry can be sent: invalid numbers only, or other reasons', async () => {
    const invalid = service(() => new CampaignEmptyError([{ number: '12', error: INVALID_PHONE_NUMBER }]));
    expect(await refusal(invalid.bulk.send(COMPANY, request))).toEqual({
      status: 400,
      body: { error: INVALID_PHONE_NUMBER, failed_numbers: [{ number: '12', error: INVALID_PHONE_NUMBER }] },
    });
    const unpriced = service(() => new CampaignEmptyError([{ number: '+447911123456', error: 'No price is set' }]));
    expect(await refusal(unpriced.bulk.send(COMPANY, request))).toMatchObject({ status: 400, body: { error: 'No entry can be sent' } });
  });

  it('refuses a request it cannot read before accepting anything', async () => {
    const { bulk, commands } = service(() => accepted(1));
    expect(await refusal(bulk.send(COMPANY, { message: 'Hi', from: 'Acme' }))).toEqual({
      status: 400,
      body: { error: 'recipients is required (or messages)' },
    });
    expect(commands).toEqual([]);
  });
});
