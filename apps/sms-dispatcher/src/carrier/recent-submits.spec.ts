import { RecentSubmits } from './recent-submits';

describe('RecentSubmits', () => {
  it('answers when a submit was answered, once', () => {
    const recent = new RecentSubmits(10);
    recent.answered('a', 100);
    expect(recent.take('a')).toBe(100);
    expect(recent.take('a')).toBeUndefined();
    expect(recent.take('never')).toBeUndefined();
  });

  it('keeps only the last `capacity` submits, forgetting the oldest first', () => {
    const recent = new RecentSubmits(2);
    recent.answered('a', 1);
    recent.answered('b', 2);
    recent.answered('c', 3);
    expect(recent.size).toBe(2);
    expect([recent.take('a'), recent.take('b'), recent.take('c')]).toEqual([undefined, 2, 3]);
  });

  it('refuses a capacity that is not a whole number above 0', () => {
    expect(() => new RecentSubmits(0)).toThrow(RangeError);
  });
});
