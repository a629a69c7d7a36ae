import { readQuery, type PageRequest, type Result } from '@mp/http-kit';
import { CAMPAIGN_STATUSES, RECIPIENT_STATES, type CampaignListFilter, type RecipientState } from '@mp/messaging';

export const CAMPAIGN_PAGE = { page: 1, limit: 50, maxLimit: 100 } as const;

export interface CampaignListQuery extends CampaignListFilter {
  page: PageRequest;
}
export interface CampaignRecipientsQuery {
  status: RecipientState | null;
  page: PageRequest;
}

/** GET /sms/campaigns: `status`, `reference` (exact), `page`, `limit`. */
export function parseCampaignListQuery(query: unknown): Result<CampaignListQuery> {
  return readQuery(query, ['status', 'reference', 'page', 'limit'], (q) => ({
    status: q.oneOf('status', CAMPAIGN_STATUSES),
    reference: q.text('reference'),
    page: q.page(CAMPAIGN_PAGE),
  }));
}

/** GET /sms/campaigns/{id}/messages: `status` (a summary counter), `page`, `limit`. */
export function parseCampaignRecipientsQuery(query: unknown): Result<CampaignRecipientsQuery> {
  return readQuery(query, ['status', 'page', 'limit'], (q) => ({ status: q.oneOf('status', RECIPIENT_STATES), page: q.page(CAMPAIGN_PAGE) }));
}
