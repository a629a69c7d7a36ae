import { isFiltered, messageFilterToSearch, messageLogQueryOf, parseMessageFilter } from './message-filter';

const CAMPAIGN = '0195F7A2-0000-7000-8000-000000000001';

describe('the message log filter in the URL', () => {
  it('reads every parameter a shared link holds', () => {
    expect(parseMessageFilter({ search: ' +44 7911 ', status: 'failed,delivered', from: '2026-11-01', to: '2026-11-02', campaign: CAMPAIGN })).toEqual({
      search: '+44 7911',
      status: ['delivered', 'failed'],
      from: '2026-11-01',
      to: '2026-11-02',
      campaign: CAMPAIGN.toLowerCase(),
    });
  });

  it('drops what cannot be read instead of failing: unknown statuses, bad dates, a reversed range, a campaign that is no id', () => {
    expect(parseMessageFilter({ status: 'lost,sent', from: '2026-13-45', to: 'yesterday', campaign: 'spring', other: 'x' })).toEqual({ status: ['sent'] });
    expect(parseMessageFilter({ from: '2026-11-05', to: '2026-11-01' })).toEqual({ from: '2026-11-05' });
    expect(parseMessageFilter({ from: '2026-02-30' })).toEqual({});
    expect(parseMessageFilter({ search: '   ', status: '' })).toEqual({});
    expect(parseMessageFilter({ search: 447911 })).toEqual({ search: '447911' });
    expect(parseMessageFilter({ status: ['queued', 'nope'] })).toEqual({ status: ['queued'] });
  });

  it('writes the filter back as it reads it, so a link round-trips', () => {
    const filter = parseMessageFilter({ search: 'order-7', status: 'delivered,failed', from: '2026-11-01', campaign: CAMPAIGN });
    const search = messageFilterToSearch(filter);
    expect(search).toEqual({ search: 'order-7', status: 'delivered,failed', from: '2026-11-01', campaign: CAMPAIGN.toLowerCase() });
    expect(parseMessageFilter({ ...search })).toEqual(filter);
    expect(messageFilterToSearch({ status: [] })).toEqual({});
  });

  it('asks the API with its own parameter names', () => {
    expect(messageLogQueryOf({ search: '447911', status: ['failed'], to: '2026-11-02', campaign: CAMPAIGN.toLowerCase() })).toEqual({
      search: '447911',
      status: 'failed',
      to: '2026-11-02',
      campaign_id: CAMPAIGN.toLowerCase(),
    });
    expect(isFiltered({})).toBe(false);
    expect(isFiltered({ status: ['sent'] })).toBe(true);
  });
});
