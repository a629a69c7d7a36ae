import { YieldingPace } from './yielding-pace';

/** A pace on jest's fake clock; `released` counts the turns granted so far. */
function pacedTurns(rate: number, turns: number, othersActiveMs = 1_000) {
  const pace = new YieldingPace(rate, othersActiveMs, () => Date.now());
  let released = 0;
  const start = () => {
    for (let i = 0; i < turns; i += 1) void pace.turn().then(() => (released += 1));
  };
  return { pace, start, released: () => released };
}

describe('YieldingPace', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('holds nothing back while no other traffic flows', async () => {
    const { start, released } = pacedTurns(100, 500);
    start();
    await jest.advanceTimersByTimeAsync(0);
    expect(released()).toBe(500);
  });

  it('keeps to its rate while other traffic flows', async () => {
    const { pace, start, released } = pacedTurns(100, 500);
    pace.noteOthers();
    start();
    for (let ms = 0; ms < 900; ms += 100) {
      pace.noteOthers();
      await jest.advanceTimersByTimeAsync(100);
    }
    // 900 ms at 100 a second, plus the first tick's share (5) it starts with.
    expect(released()).toBeGreaterThanOrEqual(90);
    expect(released()).toBeLessThanOrEqual(95);
    expect(pace.queued).toBe(500 - released());
  });

  it('lets everything waiting go once the other traffic has stopped', async () => {
    const { pace, start, released } = pacedTurns(100, 500, 1_000);
    pace.noteOthers();
    start();
    await jest.advanceTimersByTimeAsync(500);
    expect(released()).toBeLessThan(60);
    await jest.advanceTimersByTimeAsync(520);
    expect(released()).toBe(500);
    expect(pace.queued).toBe(0);
  });

  it("releases a tick's share at once, so they can share their database writes", async () => {
    const pace = new YieldingPace(1_000, 1_000, () => Date.now(), 50);
    pace.noteOthers();
    let released = 0;
    for (let i = 0; i < 500; i += 1) void pace.turn().then(() => (released += 1));
    const counts: number[] = [];
    for (const step of [0, 49, 1, 49, 1]) {
      await jest.advanceTimersByTimeAsync(step);
      counts.push(released);
    }
    expect(counts).toEqual([50, 50, 100, 100, 150]);
  });

  it('releases in arrival order', async () => {
    const pace = new YieldingPace(1_000, 1_000, () => Date.now());
    pace.noteOthers();
    const order: number[] = [];
    for (let i = 0; i < 50; i += 1) void pace.turn().then(() => order.push(i));
    await jest.advanceTimersByTimeAsync(100);
    expect(order).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('never holds back at rate 0, whatever flows', async () => {
    const { pace, start, released } = pacedTurns(0, 1_000);
    pace.noteOthers();
    start();
    await jest.advanceTimersByTimeAsync(0);
    expect(released()).toBe(1_000);
  });

  it('refuses a negative rate', () => {
    expect(() => new YieldingPace(-1)).toThrow(RangeError);
  });
});
