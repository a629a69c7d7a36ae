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

  it('keeps the reserved permits from the least urgent lane, for the others', async () => {
    const permits = new LanePermits(3, 3, 1);
    const bulk = [await permits.acquire(2), await permits.acquire(2)];
    const order: string[] = [];
    const take = (name: string, lane: number) => permits.acquire(lane).then((release) => (order.push(name), release));
    const thirdBulk = take('bulk', 2);
    await tick();
    expect({ inUse: permits.inUse, queued: permits.queued, order }).toEqual({ inUse: 2, queued: 1, order: [] });

    // The reserved permit goes to an OTP at once, although a campaign's part waits.
    const urgent = await take('urgent', 0);
    expect({ inUse: permits.inUse, queued: permits.queued, order }).toEqual({ inUse: 3, queued: 1, order: ['urgent'] });

    // Back from the OTP, it is reserved again: the waiting bulk part does not get it...
    urgent();
    await tick();
    expect({ inUse: permits.inUse, queued: permits.queued, order }).toEqual({ inUse: 2, queued: 1, order: ['urgent'] });
    // ...but a bulk permit given back passes to it.
    bulk[0]();
    await tick();
    expect({ inUse: permits.inUse, queued: permits.queued, order }).toEqual({ inUse: 2, queued: 0, order: ['urgent', 'bulk'] });
    const normal = await take('normal', 1);
    expect(permits.inUse).toBe(3);
    for (const release of [normal, bulk[1], await thirdBulk]) release();
    expect({ inUse: permits.inUse, queued: permits.queued }).toEqual({ inUse: 0, queued: 0 });
  });

  it('refuses a capacity below one, and a reserve that leaves the least urgent lane nothing', () => {
    expect(() => new LanePermits(0, 1)).toThrow(RangeError);
    expect(() => new LanePermits(2, 3, 2)).toThrow(RangeError);
    expect(() => new LanePermits(2, 3, -1)).toThrow(RangeError);
  });

  it('with one lane, reserves nothing from it', async () => {
    const permits = new LanePermits(1, 1, 0);
    const release = await permits.acquire(0);
    expect(permits.inUse).toBe(1);
    release();
    expect(permits.inUse).toBe(0);
  });
});
