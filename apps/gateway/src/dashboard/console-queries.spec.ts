import { parseLedgerCsvQuery, parseLedgerKinds, parseLedgerQuery, parseSpendQuery } from './billing-query';
import { parseOtpBlocksQuery, parseVerificationStatsQuery } from './verifications-query';

const NOW = new Date('2026-11-26T10:30:00Z');

describe('the console queries of verifications and billing', () => {
  it('defaults the charts to the 30 UTC days that end with today', () => {
    expect(parseVerificationStatsQuery({}, NOW)).toEqual({
      ok: true,
      value: {
        companyId: undefined,
        filter: { from: new Date('2026-10-28T00:00:00Z'), before: new Date('2026-11-27T00:00:00Z'), applicationId: null, channel: null, country: null },
      },
    });
    expect(parseSpendQuery({ to: '2026-11-10' }, NOW)).toEqual({
      ok: true,
      value: { companyId: undefined, range: { from: new Date('2026-10-12T00:00:00Z'), before: new Date('2026-11-11T00:00:00Z') } },
    });
  });

  it('reads the filters of the verifications page, a country in either case', () => {
    const parsed = parseVerificationStatsQuery({ from: '2026-11-01', to: '2026-11-02', channel: 'whatsapp', country: 'gb', company_id: 'c' }, NOW);
    expect(parsed).toEqual({
      ok: true,
      value: {
        companyId: 'c',
        filter: { from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-11-03T00:00:00Z'), applicationId: null, channel: 'whatsapp', country: 'GB' },
      },
    });
  });

  it.each([
    [{ channel: 'fax' }, 'channel must be one of sms, whatsapp'],
    [{ country: 'GBR' }, 'country must be an ISO 3166-1 alpha-2 code such as GB'],
    [{ from: '2026-11-05', to: '2026-11-01' }, 'from must be before to'],
    [{ from: 'yesterday' }, 'from must be an ISO 8601 date'],
    [{ page: '2' }, 'page is not a known query parameter'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseVerificationStatsQuery(query, NOW)).toEqual({ ok: false, error });
  });

  it('pages the blocks by cursor, 50 by default', () => {
    expect(parseOtpBlocksQuery({ cursor: 'abc_-1' })).toEqual({
      ok: true,
      value: {
        companyId: undefined,
        filter: { applicationId: null, recipient: null, range: { from: null, before: null } },
        page: { limit: 50, cursor: 'abc_-1' },
      },
    });
    expect(parseOtpBlocksQuery({ cursor: 'not a cursor' })).toEqual({ ok: false, error: 'cursor must be the next_cursor of the previous page' });
    expect(parseOtpBlocksQuery({ limit: '101' })).toEqual({ ok: false, error: 'limit must be an integer from 1 to 100' });
  });

  it('reads the ledger filters: kinds, dates, an exact reference, paging', () => {
    expect(parseLedgerQuery({ kinds: 'charge, refund,charge', from: '2026-11-01', to: '2026-11-01', reference: 'otp:x', limit: '20' })).toEqual({
      ok: true,
      value: {
        companyId: undefined,
        filter: { kinds: ['charge', 'refund'], from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-11-02T00:00:00Z'), reference: 'otp:x' },
        page: { limit: 20, cursor: null },
      },
    });
    expect(parseLedgerQuery({ kinds: 'charge,gift' })).toEqual({
      ok: false,
      error: 'kinds must be one or several of topup, charge, refund, adjustment, comma-separated',
    });
    expect(parseLedgerKinds('topup')).toEqual(['topup']);
    expect(parseLedgerKinds('')).toBeNull();
  });

  it('takes the ledger filters for the CSV but no paging', () => {
    expect(parseLedgerCsvQuery({ kinds: 'topup' })).toEqual({
      ok: true,
      value: { companyId: undefined, filter: { kinds: ['topup'], from: null, before: null, reference: null } },
    });
    expect(parseLedgerCsvQuery({ cursor: 'abc' })).toEqual({ ok: false, error: 'cursor is not a known query parameter' });
  });
});
