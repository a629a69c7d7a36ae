import { blockLookbackStart, blockUntil, OTP_BLOCK, retryAfterSeconds } from './otp-block';

const MINUTE = 60_000;
const start = Date.parse('2026-11-22T10:00:00Z');
/** The instant `minutes` after the start. */
const at = (minutes: number) => new Date(start + minutes * MINUTE);
const failuresAt = (...minutes: number[]) => minutes.map(at);

describe('otp-block', () => {
  it('blocks for 30 minutes after 3 wrong codes within 30 minutes', () => {
    expect(OTP_BLOCK).toEqual({ failures: 3, windowMs: 30 * MINUTE, durationMs: 30 * MINUTE });
  });

  it('does not block before the third wrong code', () => {
    expect(blockUntil([], at(0))).toBeNull();
    expect(blockUntil(failuresAt(0, 1), at(2))).toBeNull();
  });

  it('blocks until 30 minutes after the third wrong code', () => {
    const failures = failuresAt(0, 10, 20);
    expect(blockUntil(failures, at(20))).toEqual(at(50));
    expect(blockUntil(failures, at(45))).toEqual(at(50));
    expect(blockUntil(failures, at(50) /* the block has ended */)).toBeNull();
    expect(blockUntil(failures, at(60))).toBeNull();
  });

  it('takes the failures in any order', () => {
    expect(blockUntil(failuresAt(20, 0, 10), at(30))).toEqual(at(50));
  });

  it('counts a failure exactly one window earlier', () => {
    expect(blockUntil(failuresAt(0, 15, 30), at(31))).toEqual(at(60));
  });

  it('does not block 3 wrong codes spread over more than 30 minutes', () => {
    expect(blockUntil(failuresAt(0, 15, 30.01), at(31))).toBeNull();
    expect(blockUntil(failuresAt(0, 20, 40, 60), at(61))).toBeNull();
  });

  it('finds 3 failures within any 30-minute span, not only the latest', () => {
    // 0, 1, 2 block until 32; the failure at 25 keeps (1, 2, 25) → until 55.
    expect(blockUntil(failuresAt(0, 1, 2, 25), at(40))).toEqual(at(55));
    // 0, 5, 10 block until 40; the failure at 45 alone is not a block.
    expect(blockUntil(failuresAt(0, 5, 10, 45), at(39))).toEqual(at(40));
    expect(blockUntil(failuresAt(0, 5, 10, 45), at(46))).toBeNull();
  });

  it('returns the latest end of the blocks still running', () => {
    expect(blockUntil(failuresAt(0, 1, 2, 3, 4), at(10))).toEqual(at(34));
  });

  it('starts over once a block has ended', () => {
    const failures = failuresAt(0, 1, 2, 33, 34);
    expect(blockUntil(failures, at(35))).toBeNull();
    expect(blockUntil([...failures, at(35)], at(35))).toEqual(at(65));
  });

  it('looks back far enough to see every block still running', () => {
    const now = at(59);
    const failures = failuresAt(0, 29, 29.5);
    expect(blockUntil(failures, now)).toEqual(at(59.5));
    expect(blockLookbackStart(now).getTime()).toBeLessThanOrEqual(at(0).getTime());
    expect(blockLookbackStart(now)).toEqual(at(-1));
  });

  it.each([
    [at(30), at(0), 1800],
    [new Date(start + 1500), at(0), 2],
    [new Date(start + 1), at(0), 1],
    [at(0), at(0), 1],
    [at(0), at(5), 1],
  ])('waits ceil(seconds left), at least 1: until %p at %p → %p', (until, now, seconds) => {
    expect(retryAfterSeconds(until, now)).toBe(seconds);
  });
});
