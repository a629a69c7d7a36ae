import { NO_MESSAGE_FILTER } from '@mp/messaging';
import { parseMessageLogQuery, parseStatuses } from './message-log-query';

const CAMPAIGN = '0195f7a2-0000-7000-8000-000000000001';

describe('parseMessageLogQuery', () => {
  it('reads no filter, the first page of 50, from an empty or absent query string', () => {
    const first = { ok: true, value: { companyId: undefined, filter: NO_MESSAGE_FILTER, limit: 50, cursor: null } };
    expect(parseMessageLogQuery({})).toEqual(first);
    expect(parseMessageLogQuery(undefined)).toEqual(first);
    expect(parseMessageLogQuery({ search: '  ', status: '' })).toEqual(first);
  });

  it('reads the Search field as a message id, a number prefix or a reference', () => {
    expect(parseMessageLogQuery({ search: CAMPAIGN.toUpperCase() })).toMatchObject({ ok: true, value: { filter: { messageId: CAMPAIGN } } });
    expect(parseMessageLogQuery({ search: '+44 7911-123' })).toMatchObject({
      ok: true,
      value: { filter: { number: { value: '+447911123', match: 'prefix' }, messageId: null, reference: null } },
    });
    expect(parseMessageLogQuery({ search: 'order-7' })).toMatchObject({ ok: true, value: { filter: { reference: 'order-7', number: null } } });
  });

  it('reads statuses, dates (a date `to` covering its whole day), the campaign, limit and cursor', () => {
    const answer = parseMessageLogQuery({
      status: 'delivered, failed,delivered',
      from: '2026-11-01',
      to: '2026-11-02',
      campaign_id: CAMPAIGN,
      limit: '100',
      cursor: 'WyIxIiwiYSJd',
      company_id: CAMPAIGN,
    });
    expect(answer).toEqual({
      ok: true,
      value: {
        companyId: CAMPAIGN,
        filter: {
          ...NO_MESSAGE_FILTER,
          statuses: ['delivered', 'failed'],
          from: new Date('2026-11-01T00:00:00Z'),
          before: new Date('2026-11-03T00:00:00Z'),
          campaignId: CAMPAIGN,
        },
        limit: 100,
        cursor: 'WyIxIiwiYSJd',
      },
    });
  });

  it.each([
    [
      { status: 'delivered,lost' },
      'status must be one or several of scheduled, queued, sent, delivered, undelivered, expired, rejected, failed, cancelled, comma-separated',
    ],
    [{ status: ['sent', 'failed'] }, 'status must be given once, as text'],
    [{ from: '2026-11-05', to: '2026-11-01' }, 'from must be before to'],
    [{ from: 'yesterday' }, 'from must be an ISO 8601 date'],
    [{ campaign_id: 'spring' }, 'campaign_id must be a campaign id (a uuid)'],
    [{ limit: '0' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '101' }, 'limit must be an integer from 1 to 100'],
    [{ cursor: 'not a cursor!' }, 'cursor must be the next_cursor of the previous page'],
    [{ sort: 'asc' }, 'sort is not a known query parameter'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseMessageLogQuery(query)).toEqual({ ok: false, error });
  });
});

describe('parseStatuses', () => {
  it('keeps each known status once, in the order given', () => {
    expect(parseStatuses('failed,sent,failed')).toEqual(['failed', 'sent']);
    expect(parseStatuses('failed,')).toBeNull();
    expect(parseStatuses('Delivered')).toBeNull();
  });
});
