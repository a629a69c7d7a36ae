import { reconnectDelay } from './backoff';

describe('reconnectDelay', () => {
  const settings = { initialDelayMs: 100, maxDelayMs: 1_000 };

  it('doubles from the initial delay up to the maximum', () => {
    const highest = (attempt: number): number => reconnectDelay(attempt, settings, () => 1);
    expect([0, 1, 2, 3, 4, 10, 100].map(highest)).toEqual([100, 200, 400, 800, 1_000, 1_000, 1_000]);
  });

  it('jitters between half and all of it', () => {
    expect(reconnectDelay(2, settings, () => 0)).toBe(200);
    expect(reconnectDelay(2, settings, () => 0.5)).toBe(300);
  });
});
