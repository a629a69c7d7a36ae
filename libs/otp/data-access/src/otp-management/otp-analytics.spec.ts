import { utcDays } from './otp-analytics';

describe('the UTC days of a range', () => {
  it('lists every day the range touches, its first day from its start, its end excluded', () => {
    expect(utcDays(new Date('2026-11-19T23:30:00Z'), new Date('2026-11-21T00:00:00Z'))).toEqual(['2026-11-19', '2026-11-20']);
    expect(utcDays(new Date('2026-11-20T00:00:00Z'), new Date('2026-11-20T00:00:00.001Z'))).toEqual(['2026-11-20']);
    expect(utcDays(new Date('2026-02-28T00:00:00Z'), new Date('2026-03-02T00:00:00Z'))).toEqual(['2026-02-28', '2026-03-01']);
  });

  it('lists none for an empty range', () => {
    expect(utcDays(new Date('2026-11-20T00:00:00Z'), new Date('2026-11-20T00:00:00Z'))).toEqual([]);
  });
});
