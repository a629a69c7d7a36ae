import { LaneQueue } from './lane-queue';

describe('LaneQueue', () => {
  it('serves the most urgent lane first, each lane in arrival order', () => {
    const queue = new LaneQueue<string>(3);
    queue.push('bulk-1', 2);
    queue.push('normal-1', 1);
    queue.push('bulk-2', 2);
    queue.push('urgent-1', 0);
    queue.push('normal-2', 1);
    expect(queue.length).toBe(5);
    expect(queue.toArray()).toEqual(['urgent-1', 'normal-1', 'normal-2', 'bulk-1', 'bulk-2']);
    expect([queue.shift(), queue.shift()]).toEqual(['urgent-1', 'normal-1']);
    queue.push('urgent-2', 0);
    expect(queue.shift()).toBe('urgent-2');
    expect(queue.take(2)).toEqual(['normal-2', 'bulk-1']);
    expect(queue.length).toBe(1);
    queue.push('urgent-3', 0);
    expect(queue.drain()).toEqual(['urgent-3', 'bulk-2']);
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
  });

  it('puts an out-of-range lane in the nearest one, and removes an item wherever it waits', () => {
    const queue = new LaneQueue<string>(2);
    queue.push('late', 7);
    queue.push('early', -1);
    expect(queue.toArray()).toEqual(['early', 'late']);
    expect(queue.remove('late')).toBe(true);
    expect(queue.remove('late')).toBe(false);
    expect(queue.length).toBe(1);
    expect(queue.toArray()).toEqual(['early']);
    expect(() => new LaneQueue(0)).toThrow(RangeError);
  });

  it('peeks at what shift would take, and counts the items of the lanes up to one', () => {
    const queue = new LaneQueue<string>(3);
    expect(queue.peek()).toBeUndefined();
    queue.push('bulk', 2);
    queue.push('normal', 1);
    queue.push('normal-2', 1);
    expect(queue.peek()).toBe('normal');
    expect([queue.lengthUpTo(0), queue.lengthUpTo(1), queue.lengthUpTo(2)]).toEqual([0, 2, 3]);
    expect(queue.length).toBe(3);
    expect(queue.shift()).toBe('normal');
  });
});
