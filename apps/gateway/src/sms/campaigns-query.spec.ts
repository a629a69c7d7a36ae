import { parseCampaignListQuery, parseCampaignRecipientsQuery } from './campaigns-query';

const firstPage = { page: 1, limit: 50 };

describe('parseCampaignListQuery', () => {
  it('applies the defaults: no filter, page 1 of 50, also for an absent query string', () => {
    const defaults = { ok: true, value: { status: null, reference: null, page: firstPage } };
    expect(parseCampaignListQuery({})).toEqual(defaults);
    expect(parseCampaignListQuery(undefined)).toEqual(defaults);
    expect(parseCampaignListQuery(Object.create(null))).toEqual(defaults);
  });

  it('reads every parameter, the reference trimmed', () => {
    expect(parseCampaignListQuery({ status: 'completed', reference: ' spring ', page: '3', limit: '100' })).toEqual({
      ok: true,
      value: { status: 'completed', reference: 'spring', page: { page: 3, limit: 100 } },
    });
    expect(parseCampaignListQuery({ reference: '', status: '' })).toMatchObject({ ok: true, value: { status: null, reference: null } });
  });

  it.each([
    [{ limit: '0' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '101' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '2.5' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '-1' }, 'limit must be an integer from 1 to 100'],
    [{ page: '0' }, 'page must be an integer of at least 1'],
    [{ page: 'next' }, 'page must be an integer of at least 1'],
    [{ page: '99999999999999999999' }, 'page must be an integer of at least 1'],
    [{ status: 'delivered' }, 'status must be one of scheduled, queued, processing, completed, cancelled'],
    [{ status: ['queued', 'processing'] }, 'status must be given once, as text'],
    [{ reference: 'r'.repeat(101) }, 'reference is too long'],
    [{ sort: 'asc' }, 'sort is not a known query parameter'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseCampaignListQuery(query)).toEqual({ ok: false, error });
  });
});

describe('parseCampaignRecipientsQuery', () => {
  it('reads a summary counter as the status filter, and the page', () => {
    expect(parseCampaignRecipientsQuery({})).toEqual({ ok: true, value: { status: null, page: firstPage } });
    expect(parseCampaignRecipientsQuery({ status: 'cancelled', page: '2', limit: '10' })).toEqual({
      ok: true,
      value: { status: 'cancelled', page: { page: 2, limit: 10 } },
    });
  });

  it.each([
    [{ status: 'completed' }, 'status must be one of queued, processing, sent, delivered, failed, cancelled'],
    [{ reference: 'x' }, 'reference is not a known query parameter'],
    [{ limit: '500' }, 'limit must be an integer from 1 to 100'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseCampaignRecipientsQuery(query)).toEqual({ ok: false, error });
  });
});
