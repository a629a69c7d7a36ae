import { campaignListPollInterval, campaignPollInterval, type Campaign, type CampaignBatch, type CampaignSummary } from '../../api/campaigns';
import { canCancel, progressSegments, progressText } from './campaign-progress';

const summary = (counts: Partial<CampaignSummary>): CampaignSummary => ({
  queued: 0,
  processing: 0,
  sent: 0,
  delivered: 0,
  failed: 0,
  cancelled: 0,
  ...counts,
});
const batch = (status: CampaignBatch['status']): CampaignBatch => ({
  batch_id: `b-${status}`,
  position: 1,
  recipients: 1,
  status,
  scheduled_time: '2026-11-26T10:00:00Z',
  started_at: null,
  dispatched_at: null,
});
const campaign = (progress: Campaign['progress'], status: Campaign['status'] = 'processing'): Campaign => ({
  campaign_id: 'c1',
  reference: null,
  status,
  total_recipients: 8,
  successful: 8,
  failed: 0,
  total_cost: 0.28,
  refunded: 0,
  batches: 2,
  summary: summary({ queued: 8 }),
  created_at: '2026-11-26T10:00:00Z',
  progress,
});

describe('a campaign’s progress', () => {
  it('splits the bar by state, ended states first, each its share of every recipient', () => {
    expect(progressSegments(summary({ delivered: 4, failed: 1, sent: 2, processing: 1, queued: 2 }), 10)).toEqual([
      { state: 'delivered', count: 4, percent: 40, color: 'green.7', label: 'Delivered' },
      { state: 'failed', count: 1, percent: 10, color: 'red.7', label: 'Failed' },
      { state: 'sent', count: 2, percent: 20, color: 'blue.7', label: 'Sent' },
      { state: 'processing', count: 1, percent: 10, color: 'indigo.4', label: 'Processing' },
    ]);
    expect(progressSegments(summary({ cancelled: 3 }), 3)).toEqual([expect.objectContaining({ state: 'cancelled', percent: 100 })]);
    expect(progressSegments(summary({}), 0)).toEqual([]);
  });

  it('says how far it is, never 100% before it has finished', () => {
    expect(progressText(campaign({ total: 3, done: 0.6666, finished: false }))).toBe('66% done');
    expect(progressText(campaign({ total: 1000, done: 0.9999, finished: false }))).toBe('99% done');
    expect(progressText(campaign({ total: 2, done: 1, finished: true }, 'completed'))).toBe('Finished');
    expect(progressText(campaign({ total: 2, done: 1, finished: true }, 'cancelled'))).toBe('Cancelled');
  });

  it('polls while a campaign shown is running, and stops once every one has finished', () => {
    const running = campaign({ total: 8, done: 0.5, finished: false });
    const finished = campaign({ total: 8, done: 1, finished: true }, 'completed');
    expect(campaignListPollInterval({ items: [finished, running], page: 1, limit: 20, total: 2 })).toBeGreaterThan(0);
    expect(campaignListPollInterval({ items: [finished], page: 1, limit: 20, total: 1 })).toBe(false);
    expect(campaignListPollInterval(undefined)).toBe(false);
    expect(campaignPollInterval(running)).toBeGreaterThan(0);
    expect(campaignPollInterval(finished)).toBe(false);
  });

  it('offers Cancel only while a batch has not started', () => {
    expect(canCancel({ status: 'scheduled', batch_details: [batch('scheduled')] })).toBe(true);
    expect(canCancel({ status: 'processing', batch_details: [batch('dispatched'), batch('queued')] })).toBe(true);
    expect(canCancel({ status: 'processing', batch_details: [batch('dispatched'), batch('processing')] })).toBe(false);
    expect(canCancel({ status: 'cancelled', batch_details: [batch('cancelled')] })).toBe(false);
    expect(canCancel({ status: 'completed', batch_details: [batch('queued')] })).toBe(false);
  });
});
