import { timeOrderedUuid } from './time-ordered-id';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('timeOrderedUuid', () => {
  it('is a version 7, variant 10 UUID whose first 48 bits are the time in milliseconds', () => {
    const at = Date.UTC(2026, 10, 23, 12, 0, 0, 123);
    const id = timeOrderedUuid(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
  });

  it('sorts ids of later milliseconds after earlier ones, as text and as PostgreSQL orders uuids', () => {
    const ids = [0, 1, 2, 1000, 86_400_000].map((offset) => timeOrderedUuid(1_700_000_000_000 + offset));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats, within a millisecond and across refills of its random pool', () => {
    const ids = Array.from({ length: 5_000 }, () => timeOrderedUuid(1_700_000_000_000));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(UUID_V7);
  });
});
