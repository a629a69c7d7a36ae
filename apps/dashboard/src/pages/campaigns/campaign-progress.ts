// What a campaign's progress bar and counters show, from the live counters the API answers.
import type { Campaign, CampaignDetail, CampaignSummary, RecipientState } from '../../api/campaigns';

export interface ProgressSegment {
  state: RecipientState;
  count: number;
  /** Share of the bar, 0 to 100. */
  percent: number;
  color: string;
  label: string;
}

/** The bar's order: what has ended first, then what is on its way; `queued` is the empty track. */
const SEGMENTS: { state: RecipientState; color: string; label: string }[] = [
  { state: 'delivered', color: 'green.7', label: 'Delivered' },
  { state: 'failed', color: 'red.7', label: 'Failed' },
  { state: 'cancelled', color: 'gray.6', label: 'Cancelled' },
  { state: 'sent', color: 'blue.7', label: 'Sent' },
  { state: 'processing', color: 'indigo.4', label: 'Processing' },
];

export const COUNTER_LABELS: Record<RecipientState, string> = {
  queued: 'Queued',
  processing: 'Processing',
  sent: 'Sent',
  delivered: 'Delivered',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

/** The bar's sections: each state with recipients, its share of every accepted recipient. */
export function progressSegments(summary: CampaignSummary, total: number): ProgressSegment[] {
  if (total <= 0) return [];
  return SEGMENTS.filter((segment) => summary[segment.state] > 0).map((segment) => ({
    ...segment,
    count: summary[segment.state],
    percent: (summary[segment.state] / total) * 100,
  }));
}

/** "41% done" (never rounded up to 100 before it is), or how it ended. */
export function progressText(campaign: Pick<Campaign, 'status' | 'progress'>): string {
  if (campaign.progress.finished) return campaign.status === 'cancelled' ? 'Cancelled' : 'Finished';
  return `${Math.floor(campaign.progress.done * 100)}% done`;
}

/** Whether Cancel can do anything: a batch not yet started (a running campaign's later ones, or a scheduled campaign's). */
export function canCancel(campaign: Pick<CampaignDetail, 'status' | 'batch_details'>): boolean {
  if (campaign.status === 'completed' || campaign.status === 'cancelled') return false;
  return campaign.batch_details.some((batch) => batch.status === 'queued' || batch.status === 'scheduled');
}
