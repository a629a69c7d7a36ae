import { DelayQueue } from './delay-queue';

describe('DelayQueue', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  it('runs each callback its delay after it was queued, in order, never early', () => {
    const queue = new DelayQueue(50);
    const ran: string[] = [];
    queue.push(() => ran.push('a'));
    jest.advanceTimersByTime(20);
    queue.push(() => ran.push('b'));
    queue.push(() => ran.push('c'));
    jest.advanceTimersByTime(29);
    expect(ran).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(ran).toEqual(['a']);
    jest.advanceTimersByTime(19);
    expect(ran).toEqual(['a']);
    jest.advanceTimersByTime(1);
    expect(ran).toEqual(['a', 'b', 'c']);
    expect(queue.size).toBe(0);
  });

  it('keeps working after it emptied, and for callbacks queued by a callback', () => {
    const queue = new DelayQueue(10);
    const ran: number[] = [];
    queue.push(() => {
      ran.push(1);
      queue.push(() => ran.push(2));
    });
    jest.advanceTimersByTime(10);
    expect(ran).toEqual([1]);
    jest.advanceTimersByTime(10);
    expect(ran).toEqual([1, 2]);
    queue.push(() => ran.push(3));
    jest.advanceTimersByTime(10);
    expect(ran).toEqual([1, 2, 3]);
  });

  it('runs thousands in order across compactions, and clear() drops what has not run', () => {
    const queue = new DelayQueue(5);
    const ran: number[] = [];
    for (let i = 0; i < 3000; i++) {
      queue.push(() => ran.push(i));
      if (i % 100 === 99) jest.advanceTimersByTime(1);
    }
    jest.advanceTimersByTime(30);
    expect(ran).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    queue.push(() => ran.push(-1));
    queue.clear();
    jest.advanceTimersByTime(10);
    expect(ran).toHaveLength(3000);
    expect(queue.size).toBe(0);
  });
});
