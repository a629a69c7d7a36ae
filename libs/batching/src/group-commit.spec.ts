import { GroupCommit, type GroupCommitOptions, type ItemOutcome } from './group-commit';

const ok = <O>(value: O): ItemOutcome<O> => ({ ok: true, value });

function deferred() {
  let release!: () => void;
  const promise = new Promise<void>((resolve) => (release = resolve));
  return { promise, release };
}

describe('GroupCommit', () => {
  it('carries items submitted together in one flush, answering each its own outcome', async () => {
    const flushes: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        flushes.push([...items]);
        return items.map((n) => ok(n * 10));
      },
      { maxBatch: 100 },
    );
    await expect(Promise.all([1, 2, 3].map((n) => batcher.submit(n)))).resolves.toEqual([10, 20, 30]);
    expect(flushes).toEqual([[1, 2, 3]]);
  });

  it('queues what arrives while a flush runs for the next flush, and never runs two at once by default', async () => {
    const gate = deferred();
    const flushes: number[][] = [];
    let running = 0;
    let mostAtOnce = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        flushes.push([...items]);
        if (flushes.length === 1) await gate.promise;
        running -= 1;
        return items.map(ok);
      },
      { maxBatch: 100 },
    );
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [2, 3, 4].map((n) => batcher.submit(n));
    await new Promise((resolve) => setImmediate(resolve));
    expect(flushes).toEqual([[1]]);
    gate.release();
    await Promise.all([first, ...later]);
    expect(flushes).toEqual([[1], [2, 3, 4]]);
    expect(mostAtOnce).toBe(1);
  });

  it('never puts more than maxBatch items in one flush', async () => {
    const sizes: number[] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        sizes.push(items.length);
        return items.map(ok);
      },
      { maxBatch: 4 },
    );
    await Promise.all(Array.from({ length: 10 }, (_, n) => batcher.submit(n)));
    expect(sizes).toEqual([4, 4, 2]);
  });

  it('puts waiting urgent items in the next flush before a flood of others', async () => {
    const flushes: string[][] = [];
    const batcher = new GroupCommit<string, void>(
      async (items) => {
        flushes.push([...items]);
        return items.map(() => ok(undefined));
      },
      { maxBatch: 3, lanes: 3 },
    );
    const all = [...['b1', 'b2', 'b3', 'b4'].map((item) => batcher.submit(item, 2)), batcher.submit('n1', 1), batcher.submit('u1', 0)];
    await Promise.all(all);
    expect(flushes).toEqual([
      ['u1', 'n1', 'b1'],
      ['b2', 'b3', 'b4'],
    ]);
  });

  it('rejects only the item whose outcome failed', async () => {
    const batcher = new GroupCommit<number, number>(
      async (items) => items.map((n) => (n === 2 ? { ok: false as const, error: new Error('two is refused') } : ok(n))),
      { maxBatch: 10 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });

  it('when a whole flush throws, retries each item alone so one bad item fails only itself', async () => {
    const flushes: number[][] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        flushes.push([...items]);
        if (items.includes(2)) throw new Error('poison');
        return items.map(ok);
      },
      { maxBatch: 10 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => batcher.submit(n)));
    expect(results).toEqual([
      { status: 'fulfilled', value: 1 },
      { status: 'rejected', reason: new Error('poison') },
      { status: 'fulfilled', value: 3 },
    ]);
    expect(flushes).toEqual([[1, 2, 3], [1], [2], [3]]);
  });

  it('rejects the whole batch with the flush error when isolation is off', async () => {
    const batcher = new GroupCommit<number, number>(
      async () => {
        throw new Error('database down');
      },
      { maxBatch: 10, isolateFailures: false },
    );
    const results = await Promise.allSettled([1, 2].map((n) => batcher.submit(n)));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
  });

  it('refuses a flush that answers the wrong number of outcomes', async () => {
    const batcher = new GroupCommit<number, number>(async () => [], { maxBatch: 10 });
    await expect(batcher.submit(1)).rejects.toThrow('a flush of 1 items answered 0 outcomes');
  });

  it('runs up to `concurrency` flushes at once', async () => {
    const gate = deferred();
    let running = 0;
    let mostAtOnce = 0;
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await gate.promise;
        running -= 1;
        return items.map(ok);
      },
      { maxBatch: 1, concurrency: 3 },
    );
    const all = Promise.all(Array.from({ length: 6 }, (_, n) => batcher.submit(n)));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(batcher.pending).toBe(6);
    gate.release();
    await all;
    expect(mostAtOnce).toBe(3);
  });

  it('idle() resolves once everything submitted has been flushed', async () => {
    const done: number[] = [];
    const batcher = new GroupCommit<number, number>(
      async (items) => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        done.push(...items);
        return items.map(ok);
      },
      { maxBatch: 2 },
    );
    for (const n of [1, 2, 3]) void batcher.submit(n);
    await batcher.idle();
    expect(done).toEqual([1, 2, 3]);
    await expect(batcher.idle()).resolves.toBeUndefined();
  });

  describe('with lingerMs', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    const recording = (maxBatch: number, lingerMs: number, more: Partial<GroupCommitOptions> = {}) => {
      const flushes: number[][] = [];
      const batcher = new GroupCommit<number, number>(
        async (items) => {
          flushes.push([...items]);
          return items.map(ok);
        },
        { maxBatch, lingerMs, ...more },
      );
      return { flushes, batcher };
    };

    it('holds the first item until it has lingered, then flushes everything that came meanwhile', async () => {
      const { flushes, batcher } = recording(100, 50);
      const first = batcher.submit(1);
      await jest.advanceTimersByTimeAsync(30);
      const second = batcher.submit(2);
      await jest.advanceTimersByTimeAsync(19);
      expect(flushes).toEqual([]);
      await jest.advanceTimersByTimeAsync(1);
      await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
      expect(flushes).toEqual([[1, 2]]);
    });

    it('flushes a full batch at once, without lingering', async () => {
      const { flushes, batcher } = recording(3, 1_000);
      const full = [1, 2, 3].map((n) => batcher.submit(n));
      await jest.advanceTimersByTimeAsync(0);
      await expect(Promise.all(full)).resolves.toEqual([1, 2, 3]);
      expect(flushes).toEqual([[1, 2, 3]]);
    });

    it('lets the next items linger again once a flush has taken the lingering ones', async () => {
      const { flushes, batcher } = recording(100, 50);
      void batcher.submit(1);
      await jest.advanceTimersByTimeAsync(50);
      void batcher.submit(2);
      await jest.advanceTimersByTimeAsync(49);
      expect(flushes).toEqual([[1]]);
      await jest.advanceTimersByTimeAsync(1);
      expect(flushes).toEqual([[1], [2]]);
    });

    describe('lingerOnlyInBursts', () => {
      const bursty = (lingerMs: number) => recording(100, lingerMs, { lingerOnlyInBursts: true });

      it('sends an item that arrives alone, long after the one before it, at once', async () => {
        const { flushes, batcher } = bursty(50);
        const first = batcher.submit(1);
        await jest.advanceTimersByTimeAsync(0);
        await expect(first).resolves.toBe(1);
        await jest.advanceTimersByTimeAsync(500);
        const later = batcher.submit(2);
        await jest.advanceTimersByTimeAsync(0);
        await expect(later).resolves.toBe(2);
        expect(flushes).toEqual([[1], [2]]);
      });

      it('still carries items submitted together in one flush', async () => {
        const { flushes, batcher } = bursty(50);
        const together = [1, 2, 3].map((n) => batcher.submit(n));
        await jest.advanceTimersByTimeAsync(0);
        await expect(Promise.all(together)).resolves.toEqual([1, 2, 3]);
        expect(flushes).toEqual([[1, 2, 3]]);
      });

      it('lets an item that follows another within lingerMs linger for company', async () => {
        const { flushes, batcher } = bursty(50);
        void batcher.submit(1);
        await jest.advanceTimersByTimeAsync(10);
        void batcher.submit(2);
        await jest.advanceTimersByTimeAsync(30);
        void batcher.submit(3);
        await jest.advanceTimersByTimeAsync(19);
        expect(flushes).toEqual([[1]]);
        await jest.advanceTimersByTimeAsync(1);
        expect(flushes).toEqual([[1], [2, 3]]);
      });
    });

    describe('lingerTimesLastFlush', () => {
      /** Each flush takes `flushMs[i]` (fake) milliseconds. */
      const timed = (lingerMs: number, flushMs: number[], times = 1) => {
        const flushes: { at: number; items: number[] }[] = [];
        const batcher = new GroupCommit<number, number>(
          async (items) => {
            flushes.push({ at: Date.now(), items: [...items] });
            const ms = flushMs[flushes.length - 1] ?? 0;
            if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
            return items.map(ok);
          },
          { maxBatch: 100, lingerMs, lingerTimesLastFlush: times },
        );
        return { flushes, batcher };
      };

      it('does not linger before any flush has been timed', async () => {
        const { flushes, batcher } = timed(50, [0]);
        const start = Date.now();
        const item = batcher.submit(1);
        await jest.advanceTimersByTimeAsync(0);
        await expect(item).resolves.toBe(1);
        expect(flushes).toEqual([{ at: start, items: [1] }]);
      });

      it.each([
        { rule: 'as long as the last flush took', lingerMs: 50, firstFlushMs: 10, times: 1, secondAt: 5, expectedAt: 20 },
        { rule: 'the given multiple of the last flush', lingerMs: 50, firstFlushMs: 10, times: 2, secondAt: 5, expectedAt: 30 },
        { rule: 'at most lingerMs, however long the last flush took', lingerMs: 20, firstFlushMs: 100, times: 1, secondAt: 1, expectedAt: 120 },
      ])('lingers $rule', async ({ lingerMs, firstFlushMs, times, secondAt, expectedAt }) => {
        const { flushes, batcher } = timed(lingerMs, [firstFlushMs, 0], times);
        const start = Date.now();
        void batcher.submit(1);
        await jest.advanceTimersByTimeAsync(secondAt);
        void batcher.submit(2);
        await jest.advanceTimersByTimeAsync(expectedAt - secondAt - 1);
        expect(flushes).toEqual([{ at: start, items: [1] }]);
        await jest.advanceTimersByTimeAsync(1);
        expect(flushes).toEqual([
          { at: start, items: [1] },
          { at: start + expectedAt, items: [2] },
        ]);
      });
    });

    it('idle() flushes lingering items at once', async () => {
      const { flushes, batcher } = recording(100, 60_000);
      const item = batcher.submit(7);
      const idle = batcher.idle();
      await jest.advanceTimersByTimeAsync(0);
      await expect(item).resolves.toBe(7);
      await expect(idle).resolves.toBeUndefined();
      expect(flushes).toEqual([[7]]);
    });
  });
});
