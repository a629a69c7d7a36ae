import { TrafficPolicy, type TrafficSettings } from './traffic-policy';
import { YieldingPace } from './yielding-pace';

/** The pace of a traffic policy with this campaign pace (and othersFlowMs), on jest's fake clock. */
function paceOf(rate: number, othersFlowMs = 1_000, campaigns: TrafficSettings['campaigns'] = {}): YieldingPace {
  return new YieldingPace(new TrafficPolicy({ othersFlowMs, campaigns: { ...campaigns, pacePerSecond: rate } }), () => Date.now());
}

/** A pace on jest's fake clock; `released` counts the turns granted so far. */
function pacedTurns(rate: number, turns: number, othersFlowMs = 1_000) {
  const pace = paceOf(rate, othersFlowMs);
  let released = 0;
  const start = () => {
    for (let i = 0; i < turns; i += 1) void pace.turn().then(() => (released += 1));
  };
  return { pace, start, released: () => released };
}

describe('YieldingPace', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('holds nothing back while no other traffic flows, once past its slow start', async () => {
    const { pace, start, released } = pacedTurns(100, 500);
    for (let ms = 0; ms < 1_200; ms += 600) {
      await pace.turn();
      await jest.advanceTimersByTimeAsync(600);
    }
    start();
    await jest.advanceTimersByTimeAsync(0);
    expect(released()).toBe(500);
  });

  it('starts slowly after a quiet spell, as if other traffic flowed for that long', async () => {
    const { pace, start, released } = pacedTurns(100, 500, 1_000);
    start();
    await jest.advanceTimersByTimeAsync(900);
    // 900 ms at 100 a second, plus the first tick's share.
    expect(released()).toBeGreaterThanOrEqual(90);
    expect(released()).toBeLessThanOrEqual(95);
    await jest.advanceTimersByTimeAsync(120);
    expect(released()).toBe(500);
    expect(pace.queued).toBe(0);
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
    const pace = paceOf(1_000);
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
    const pace = paceOf(1_000);
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

  describe('batch starts', () => {
    /** Resolves a start turn into a flag, so a test can see whether it was granted yet. */
    function watched(turn: Promise<() => void>) {
      const state: { made?: () => void } = {};
      void turn.then((made) => (state.made = made));
      return state;
    }

    it('go one at a time while it holds, and only once less than a second of parts waits', async () => {
      const pace = paceOf(100);
      pace.noteOthers();
      const first = watched(pace.startTurn());
      const second = watched(pace.startTurn());
      await jest.advanceTimersByTimeAsync(0);
      expect(first.made).toBeDefined();
      expect(second.made).toBeUndefined();
      // The first batch's parts join the queue before it says it is made.
      for (let i = 0; i < 150; i += 1) void pace.turn();
      first.made?.();
      for (let ms = 0; ms < 400; ms += 50) {
        pace.noteOthers();
        await jest.advanceTimersByTimeAsync(50);
      }
      expect(pace.queued).toBeGreaterThanOrEqual(100);
      expect(second.made).toBeUndefined();
      for (let ms = 0; ms < 200; ms += 50) {
        pace.noteOthers();
        await jest.advanceTimersByTimeAsync(50);
      }
      expect(pace.queued).toBeLessThan(100);
      expect(second.made).toBeDefined();
      expect(pace.startsQueued).toBe(0);
    });

    it('wait for the one being made, however few parts wait', async () => {
      const pace = paceOf(100);
      pace.noteOthers();
      const first = watched(pace.startTurn());
      const second = watched(pace.startTurn());
      for (let ms = 0; ms < 500; ms += 50) {
        pace.noteOthers();
        await jest.advanceTimersByTimeAsync(50);
      }
      expect(second.made).toBeUndefined();
      first.made?.();
      first.made?.();
      await jest.advanceTimersByTimeAsync(50);
      expect(second.made).toBeDefined();
    });

    it('all go at once when nothing else flows, once past the slow start', async () => {
      const pace = paceOf(100);
      const opener = watched(pace.startTurn());
      await jest.advanceTimersByTimeAsync(0);
      opener.made?.();
      // The lane stays in use (a part at 600 ms) past the slow start's end.
      await jest.advanceTimersByTimeAsync(600);
      await pace.turn();
      await jest.advanceTimersByTimeAsync(450);
      const starts = [watched(pace.startTurn()), watched(pace.startTurn()), watched(pace.startTurn())];
      await jest.advanceTimersByTimeAsync(0);
      expect(starts.every((start) => start.made !== undefined)).toBe(true);
    });

    it('a first start after a quiet spell holds the others back for the slow start', async () => {
      const pace = paceOf(100);
      const starts = [watched(pace.startTurn()), watched(pace.startTurn())];
      await jest.advanceTimersByTimeAsync(0);
      expect(starts.map((start) => start.made !== undefined)).toEqual([true, false]);
      for (let i = 0; i < 500; i += 1) void pace.turn();
      starts[0].made?.();
      await jest.advanceTimersByTimeAsync(900);
      expect(starts[1].made).toBeUndefined();
      await jest.advanceTimersByTimeAsync(150);
      expect(starts[1].made).toBeDefined();
      expect(pace.queued).toBe(0);
    });

    it("make their rows in the policy's slices, its tick apart while it holds, for as long as it holds", async () => {
      const pace = paceOf(100, 1_000, { makingSlice: 40, paceTickMs: 30 });
      pace.noteOthers();
      const slicing = pace.makingSlices();
      expect(slicing?.slice).toBe(40);
      let waited = false;
      void slicing?.between().then(() => (waited = true));
      await jest.advanceTimersByTimeAsync(29);
      expect(waited).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(waited).toBe(true);
      // The others stop: the rest of the batch goes without waiting.
      await jest.advanceTimersByTimeAsync(1_000);
      let rest = false;
      void slicing?.between().then(() => (rest = true));
      await jest.advanceTimersByTimeAsync(0);
      expect(rest).toBe(true);
    });

    it('make their rows at once when nothing else flows, or at rate 0', async () => {
      const pace = paceOf(100);
      expect(pace.makingSlices()).toBeUndefined();
      const unpaced = paceOf(0);
      unpaced.noteOthers();
      expect(unpaced.makingSlices()).toBeUndefined();
    });

    it('are never held at rate 0', async () => {
      const pace = paceOf(0);
      pace.noteOthers();
      const starts = [watched(pace.startTurn()), watched(pace.startTurn())];
      await jest.advanceTimersByTimeAsync(0);
      expect(starts.every((start) => start.made !== undefined)).toBe(true);
    });
  });
});
