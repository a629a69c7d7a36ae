import { LanePermits, type Release } from './lane-permits';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('LanePermits', () => {
  it('never has more holders than its capacity, and gives a freed permit to the most urgent waiter', async () => {
    const permits = new LanePermits(2, 3);
    const first = await permits.acquire(2);
    const second = await permits.acquire(2);
    const order: string[] = [];
    const take = (name: string, lane: number) => permits.acquire(lane).then((release) => (order.push(name), release));
    const bulk = take('bulk', 2);
    const normal = take('normal', 1);
    const urgent = take('urgent', 0);
    await tick();
    expect({ inUse: permits.inUse, queued: permits.queued, order }).toEqual({ inUse: 2, queued: 3, order: [] });

    first();
    first(); // a second call gives nothing back twice
    await tick();
    expect(order).toEqual(['urgent']);
    expect(permits.inUse).toBe(2);
    second();
    await tick();
    expect(order).toEqual(['urgent', 'normal']);
    (await urgent)();
    (await normal)();
    const last: Release = await bulk;
    expect(order).toEqual(['urgent', 'normal', 'bulk']);
    expect(permits.inUse).toBe(1);
    last();
    expect({ inUse: permits.inUse, queued: permits.queued }).toEqual({ inUse: 0, queued: 0 });
  });

  it('refuses a capacity below one', () => {
    expect(() => new LanePermits(0, 1)).toThrow(RangeError);
  });
});
