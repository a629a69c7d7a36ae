import { parseSmsListQuery } from '../sms/sms-list-query';
import { parseUsageQuery } from '../usage/usage-query';
import { wantsCsv } from './date-range-query';

describe('the public lists’ query strings', () => {
  it.each([
    [null, undefined, false],
    [null, 'text/csv', true],
    [null, 'application/json, text/csv', false],
    [null, 'text/csv;q=0.9, application/json', true],
    ['json', 'text/csv', false],
    ['csv', 'application/json', true],
  ] as const)('format %s with Accept %s: CSV %s', (format, accept, csv) => {
    expect(wantsCsv(format, accept)).toBe(csv);
  });

  it('reads date_to as its whole UTC day and to/from as the numbers', () => {
    const read = parseSmsListQuery({ to: '+447400953101', from: 'Acme', date_from: '2026-11-01', date_to: '2026-11-01', status: 'sent,sent' });
    expect(read).toMatchObject({
      ok: true,
      value: {
        filter: {
          number: { value: '+447400953101', match: 'exact' },
          sender: 'Acme',
          statuses: ['sent'],
          from: new Date('2026-11-01T00:00:00Z'),
          before: new Date('2026-11-02T00:00:00Z'),
        },
        limit: 50,
      },
    });
  });

  it.each([
    [{ date_from: '2026-11-02', date_to: '2026-11-01' }, 'date_from must be before date_to'],
    [{ limit: '101' }, 'limit must be an integer from 1 to 100'],
    [{ cursor: 'a+b' }, 'cursor must be the next_cursor of the previous page'],
    [{ to: '07400953101' }, 'to must be a number in E.164 (+ then its digits)'],
  ])('refuses %j', (query, error) => {
    expect(parseSmsListQuery(query)).toEqual({ ok: false, error });
  });

  it('bounds the usage range: the last 30 days by default, at most 366', () => {
    const now = new Date('2026-11-26T14:00:00Z');
    expect(parseUsageQuery({}, now)).toEqual({
      ok: true,
      value: { group: 'day', format: null, range: { from: new Date('2026-10-28T00:00:00Z'), before: new Date('2026-11-27T00:00:00Z') } },
    });
    expect(parseUsageQuery({ date_from: '2025-01-01' }, now)).toEqual({ ok: false, error: 'the range must be at most 366 days' });
  });
});
