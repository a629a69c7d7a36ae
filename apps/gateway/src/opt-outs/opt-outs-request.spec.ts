import { MAX_OPT_OUTS_PER_REQUEST, parseOptOutImport, parseOptOutListQuery } from './opt-outs-request';

const NOW = new Date('2026-11-26T12:00:00Z');

describe('parseOptOutImport', () => {
  it('reads one entry as the body, defaulting to every number, source api and now', () => {
    expect(parseOptOutImport({ phone: '447911123456' }, NOW)).toEqual({
      ok: true,
      value: { entries: [{ phone: '+447911123456', number: null, source: 'api', createdAt: NOW }], failed: [] },
    });
  });

  it('reads many with their number, source and time, listing the bad ones with why', () => {
    const parsed = parseOptOutImport(
      {
        opt_outs: [
          { phone: '+447911123456', number: ' +447400900123 ', source: 'import', created_at: '2026-01-15T09:30:00Z' },
          { phone: '+4479' },
          { phone: '+447911123457', source: 'carrier' },
          { phone: '+447911123458', created_at: '2099-01-01T00:00:00Z' },
          { phone: '+447911123459', number: '!!' },
          { phone: '+447911123460', colour: 'red' },
          'x',
        ],
      },
      NOW,
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        entries: [{ phone: '+447911123456', number: '+447400900123', source: 'import', createdAt: new Date('2026-01-15T09:30:00Z') }],
        failed: [
          { number: '+4479', error: 'Invalid phone number format' },
          { number: '+447911123457', error: 'source must be one of keyword, api, import, console, admin' },
          { number: '+447911123458', error: 'created_at must not be in the future' },
          { number: '+447911123459', error: expect.stringContaining('number must be') },
          { number: '+447911123460', error: 'colour is not a known field' },
          { number: '', error: 'each entry must be an object' },
        ],
      },
    });
  });

  it('refuses a malformed body whole', () => {
    expect(parseOptOutImport([], NOW)).toEqual({ ok: false, error: 'body must be a JSON object' });
    expect(parseOptOutImport({ opt_outs: [] }, NOW)).toEqual({ ok: false, error: 'opt_outs must be a non-empty array' });
    expect(parseOptOutImport({ opt_outs: [{ phone: '+447911123456' }], phone: '+447911123457' }, NOW)).toEqual({
      ok: false,
      error: 'send either opt_outs or one entry, not both',
    });
    expect(parseOptOutImport({ list: [] }, NOW)).toEqual({ ok: false, error: 'list is not a known field' });
    const tooMany = Array.from({ length: MAX_OPT_OUTS_PER_REQUEST + 1 }, () => ({ phone: '+447911123456' }));
    expect(parseOptOutImport({ opt_outs: tooMany }, NOW)).toEqual({ ok: false, error: 'at most 10000 opt_outs per request' });
  });
});

describe('parseOptOutListQuery', () => {
  it('reads the filters, a limit and a cursor; a + the query string turned into a space is put back', () => {
    expect(parseOptOutListQuery({ phone: ' 447911123456', number: 'Acme', source: 'keyword', limit: '10', cursor: 'WyIxIl0' })).toEqual({
      ok: true,
      value: { phone: '+447911123456', number: 'Acme', source: 'keyword', limit: 10, cursor: 'WyIxIl0' },
    });
    expect(parseOptOutListQuery({})).toEqual({ ok: true, value: { limit: 50 } });
  });

  it('refuses a bad phone, source, limit or an unknown parameter', () => {
    expect(parseOptOutListQuery({ phone: 'x' })).toMatchObject({ ok: false, error: 'phone must be a phone number in E.164' });
    expect(parseOptOutListQuery({ source: 'carrier' })).toMatchObject({ ok: false });
    expect(parseOptOutListQuery({ limit: '1001' })).toMatchObject({ ok: false, error: 'limit must be an integer from 1 to 1000' });
    expect(parseOptOutListQuery({ page: '2' })).toMatchObject({ ok: false, error: 'page is not a known query parameter' });
  });
});
