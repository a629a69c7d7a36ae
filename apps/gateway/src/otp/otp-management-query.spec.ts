import { parseOtpAttemptQuery, parseOtpListQuery, parseOtpLogQuery, parseOtpReportQuery, parseOtpStatusQuery } from './otp-management-query';

const everything = { from: null, before: null };
const firstPage = { page: 1, limit: 20 };

describe('parseOtpStatusQuery', () => {
  it('takes verification_id, trimmed, and requires it', () => {
    expect(parseOtpStatusQuery({ verification_id: ' abc ' })).toEqual({ ok: true, value: { verificationId: 'abc' } });
    expect(parseOtpStatusQuery({})).toEqual({ ok: false, error: 'verification_id is required' });
    expect(parseOtpStatusQuery({ verification_id: '' })).toEqual({ ok: false, error: 'verification_id is required' });
  });

  it('refuses a repeated or unknown parameter', () => {
    expect(parseOtpStatusQuery({ verification_id: ['a', 'b'] })).toEqual({ ok: false, error: 'verification_id must be given once, as text' });
    expect(parseOtpStatusQuery({ verification_id: 'a', id: 'b' })).toEqual({ ok: false, error: 'id is not a known query parameter' });
  });
});

describe('parseOtpListQuery', () => {
  it('applies the defaults: no filter, page 1 of 20', () => {
    expect(parseOtpListQuery({})).toEqual({
      ok: true,
      value: { appid: null, recipient: null, status: null, channel: null, range: everything, page: firstPage },
    });
  });

  it('reads every filter', () => {
    const query = {
      appid: 'app_1',
      recipient: '+33612345678',
      status: 'expired',
      channel: 'sms',
      from: '2026-11-01',
      to: '2026-11-30',
      page: '3',
      limit: '100',
    };
    expect(parseOtpListQuery(query)).toEqual({
      ok: true,
      value: {
        appid: 'app_1',
        recipient: '+33612345678',
        status: 'expired',
        channel: 'sms',
        range: { from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-12-01T00:00:00Z') },
        page: { page: 3, limit: 100 },
      },
    });
  });

  it('accepts a number whose + arrived as a space (unencoded in the URL)', () => {
    expect(parseOtpListQuery({ recipient: ' 33612345678' })).toMatchObject({ ok: true, value: { recipient: '+33612345678' } });
  });

  it('takes a timestamp `to` as inclusive, to the millisecond', () => {
    expect(parseOtpListQuery({ from: '2026-11-22T10:00:00+02:00', to: '2026-11-22T12:00:00.250Z' })).toMatchObject({
      ok: true,
      value: { range: { from: new Date('2026-11-22T08:00:00Z'), before: new Date('2026-11-22T12:00:00.251Z') } },
    });
  });

  it.each([
    [{ limit: '0' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '101' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '10.5' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '1e2' }, 'limit must be an integer from 1 to 100'],
    [{ limit: '-1' }, 'limit must be an integer from 1 to 100'],
    [{ page: '0' }, 'page must be an integer of at least 1'],
    [{ page: 'two' }, 'page must be an integer of at least 1'],
    [{ page: '99999999999999999999' }, 'page must be an integer of at least 1'],
    [{ status: 'done' }, 'status must be one of pending, verified, expired, failed, cancelled'],
    [{ channel: 'fax' }, 'channel must be one of sms, whatsapp'],
    [{ recipient: '12' }, 'recipient must be a phone number in E.164 format, such as +447911123456'],
    [{ from: 'yesterday' }, 'from must be an ISO 8601 date'],
    [{ from: '2026-02-30' }, 'from must be an ISO 8601 date'],
    [{ to: '2026-11-22T10:00:00' }, 'to must be an ISO 8601 date'],
    [{ to: '2026-13-01' }, 'to must be an ISO 8601 date'],
    [{ from: '2026-11-23', to: '2026-11-22' }, 'from must be before to'],
    [{ appid: 'x'.repeat(101) }, 'appid is too long'],
    [{ sort: 'asc' }, 'sort is not a known query parameter'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseOtpListQuery(query)).toEqual({ ok: false, error });
  });
});

describe('parseOtpLogQuery', () => {
  it('reads verification_id, appid, recipient, event (refused included) and the range', () => {
    expect(parseOtpLogQuery({ verification_id: 'v1', event: 'refused', limit: '5' })).toEqual({
      ok: true,
      value: { verificationId: 'v1', appid: null, recipient: null, event: 'refused', range: everything, page: { page: 1, limit: 5 } },
    });
    expect(parseOtpLogQuery({ event: 'failed_attempt' })).toMatchObject({ ok: true, value: { event: 'failed_attempt' } });
  });

  it('refuses an unknown event and a filter of another endpoint', () => {
    expect(parseOtpLogQuery({ event: 'opened' })).toEqual({
      ok: false,
      error: 'event must be one of sent, delivered, verified, failed_attempt, expired, resent, blocked, failed, refused',
    });
    expect(parseOtpLogQuery({ outcome: 'success' })).toEqual({ ok: false, error: 'outcome is not a known query parameter' });
  });
});

describe('parseOtpAttemptQuery', () => {
  it('reads the filters and the outcome', () => {
    expect(parseOtpAttemptQuery({ recipient: '+33612345678', outcome: 'invalid_code', appid: 'app_1' })).toEqual({
      ok: true,
      value: { verificationId: null, appid: 'app_1', recipient: '+33612345678', outcome: 'invalid_code', range: everything, page: firstPage },
    });
  });

  it('refuses an unknown outcome', () => {
    expect(parseOtpAttemptQuery({ outcome: 'wrong' })).toEqual({
      ok: false,
      error: 'outcome must be one of success, invalid_code, expired, blocked, already_verified',
    });
  });
});

describe('parseOtpReportQuery', () => {
  const now = new Date('2026-11-22T10:00:00Z');

  it('defaults to the 30 days up to now', () => {
    expect(parseOtpReportQuery({}, now)).toEqual({
      ok: true,
      value: { appid: null, channel: null, from: new Date('2026-10-23T10:00:00Z'), before: new Date('2026-11-22T10:00:00.001Z') },
    });
  });

  it('takes the dates given, and 30 days before a lone `to`', () => {
    expect(parseOtpReportQuery({ from: '2026-11-01', to: '2026-11-30', appid: 'app_1', channel: 'sms' }, now)).toEqual({
      ok: true,
      value: { appid: 'app_1', channel: 'sms', from: new Date('2026-11-01T00:00:00Z'), before: new Date('2026-12-01T00:00:00Z') },
    });
    expect(parseOtpReportQuery({ to: '2026-10-31' }, now)).toMatchObject({
      value: { from: new Date('2026-10-02T00:00:00Z'), before: new Date('2026-11-01T00:00:00Z') },
    });
  });

  it.each([
    [{ from: '2025-01-01', to: '2026-11-01' }, 'from and to must be at most 366 days apart'],
    [{ from: '2025-01-01' }, 'from and to must be at most 366 days apart'],
    [{ from: '2026-12-01' }, 'from must be before to'],
    [{ to: 'soon' }, 'to must be an ISO 8601 date'],
    [{ page: '1' }, 'page is not a known query parameter'],
  ])('refuses %j: %s', (query, error) => {
    expect(parseOtpReportQuery(query, now)).toEqual({ ok: false, error });
  });
});
