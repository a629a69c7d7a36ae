import type { RouteEntry } from './route-entry';
import { planRoute, type CarrierStatus } from './route-plan';

const route = (carrierId: string, extra: Partial<RouteEntry> = {}): RouteEntry => ({ prefix: '+44', routeClass: 'auto', carrierId, priority: 1, ...extra });
const up = (id: string, extra: Partial<CarrierStatus> = {}): CarrierStatus => ({ id, enabled: true, bound: true, degraded: false, ...extra });

/** A random source that hands out exactly these numbers and fails the test if asked for more. */
function draws(...values: number[]): () => number {
  return () => {
    const value = values.shift();
    if (value === undefined) throw new Error('asked for more random numbers than the test expected');
    return value;
  };
}

/** A seeded generator (mulberry32), so many-draw checks are the same on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const order = (plan: ReturnType<typeof planRoute>) => plan.carriers.map((c) => c.carrierId);

describe('planRoute', () => {
  it('puts the cheapest healthy carrier first, then the others by cost, without drawing', () => {
    const plan = planRoute([route('dear', { cost: 60n }), route('cheap', { cost: 40n }), route('mid', { cost: 50n })], [up('dear'), up('cheap'), up('mid')], {
      random: draws(),
    });
    expect(order(plan)).toEqual(['cheap', 'mid', 'dear']);
    expect(plan.firstChoice).toBe('least_cost');
  });

  it('breaks cost ties by priority, then id, and puts unknown costs last', () => {
    const candidates = [
      route('b', { cost: 40n, priority: 2 }),
      route('unpriced', { priority: 0 }),
      route('a', { cost: 40n, priority: 2 }),
      route('c', { cost: 40n, priority: 1 }),
    ];
    expect(
      order(
        planRoute(
          candidates,
          ['a', 'b', 'c', 'unpriced'].map((id) => up(id)),
          { random: draws() },
        ),
      ),
    ).toEqual(['c', 'a', 'b', 'unpriced']);
  });

  it('orders by priority alone when no cost is known', () => {
    const candidates = [route('second', { priority: 2 }), route('first', { priority: 1 }), route('third', { priority: 3 })];
    expect(
      order(
        planRoute(
          candidates,
          ['first', 'second', 'third'].map((id) => up(id)),
          { random: draws() },
        ),
      ),
    ).toEqual(['first', 'second', 'third']);
  });

  it('keeps degraded and unbound carriers after the healthy ones, for failover, and skips disabled and unknown ones', () => {
    const candidates = [
      route('unbound', { cost: 10n }),
      route('degraded', { cost: 20n }),
      route('healthy', { cost: 90n }),
      route('off', { cost: 1n }),
      route('gone', { cost: 1n }),
    ];
    const statuses = [up('unbound', { bound: false }), up('degraded', { degraded: true }), up('healthy'), up('off', { enabled: false })];
    const plan = planRoute(candidates, statuses, { random: draws(0.5), probeShare: 0.01 });
    expect(plan.carriers.map((c) => [c.carrierId, c.tier])).toEqual([
      ['healthy', 'healthy'],
      ['degraded', 'degraded'],
      ['unbound', 'unbound'],
    ]);
    expect(plan.skipped).toEqual([
      { carrierId: 'off', reason: 'disabled' },
      { carrierId: 'gone', reason: 'unknown' },
    ]);
  });

  it('treats a degraded carrier without a bound bind as unbound', () => {
    const plan = planRoute([route('a', { cost: 1n }), route('b', { cost: 2n })], [up('a', { bound: false, degraded: true }), up('b')], { random: draws() });
    expect(plan.carriers.map((c) => [c.carrierId, c.tier])).toEqual([
      ['b', 'healthy'],
      ['a', 'unbound'],
    ]);
  });

  it('answers no_healthy with the failover order when no carrier is healthy, and none when nothing is left', () => {
    const plan = planRoute([route('u', { cost: 1n }), route('d', { cost: 2n })], [up('u', { bound: false }), up('d', { degraded: true })], { random: draws() });
    expect([plan.firstChoice, order(plan)]).toEqual(['no_healthy', ['d', 'u']]);
    const nothing = planRoute([route('off')], [up('off', { enabled: false })], { random: draws() });
    expect([nothing.firstChoice, nothing.carriers]).toEqual(['none', []]);
  });

  it('probes a degraded carrier first when the draw falls in its share', () => {
    const candidates = [route('healthy', { cost: 50n }), route('sick-a', { cost: 10n }), route('sick-b', { cost: 20n })];
    const statuses = [up('healthy'), up('sick-a', { degraded: true }), up('sick-b', { degraded: true })];
    const probeA = planRoute(candidates, statuses, { random: draws(0.005), probeShare: 0.01 });
    expect([probeA.firstChoice, order(probeA)]).toEqual(['probe', ['sick-a', 'healthy', 'sick-b']]);
    const probeB = planRoute(candidates, statuses, { random: draws(0.015), probeShare: 0.01 });
    expect([probeB.firstChoice, order(probeB)]).toEqual(['probe', ['sick-b', 'healthy', 'sick-a']]);
    const noProbe = planRoute(candidates, statuses, { random: draws(0.02), probeShare: 0.01 });
    expect([noProbe.firstChoice, order(noProbe)]).toEqual(['least_cost', ['healthy', 'sick-a', 'sick-b']]);
  });

  it('gives each degraded carrier about its probe share of first choices', () => {
    const candidates = [route('healthy', { cost: 50n }), route('sick', { cost: 10n })];
    const statuses = [up('healthy'), up('sick', { degraded: true })];
    const random = seeded(31);
    let probes = 0;
    for (let i = 0; i < 100_000; i++) if (planRoute(candidates, statuses, { random, probeShare: 0.01 }).carriers[0].carrierId === 'sick') probes++;
    expect(probes).toBeGreaterThan(900);
    expect(probes).toBeLessThan(1_100);
  });

  it('draws the first choice by weight among the healthy, the rest in least-cost order', () => {
    const candidates = [route('a', { cost: 30n, weight: 70 }), route('b', { cost: 20n, weight: 30 }), route('c', { cost: 10n })];
    const statuses = ['a', 'b', 'c'].map((id) => up(id));
    // Weighted carriers are drawn in least-cost order: b covers [0, 30), a [30, 100) of the total.
    const toB = planRoute(candidates, statuses, { random: draws(0.29) });
    expect([toB.firstChoice, order(toB)]).toEqual(['weighted', ['b', 'c', 'a']]);
    const toA = planRoute(candidates, statuses, { random: draws(0.3) });
    expect([toA.firstChoice, order(toA)]).toEqual(['weighted', ['a', 'c', 'b']]);
  });

  it('splits first choices within a percent of the weights', () => {
    const candidates = [route('a', { weight: 70 }), route('b', { weight: 20 }), route('c', { weight: 10 })];
    const statuses = ['a', 'b', 'c'].map((id) => up(id));
    const random = seeded(7);
    const firsts = new Map<string, number>();
    for (let i = 0; i < 100_000; i++) {
      const first = planRoute(candidates, statuses, { random }).carriers[0].carrierId;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    for (const [carrier, weight] of [
      ['a', 70],
      ['b', 20],
      ['c', 10],
    ] as const) {
      expect(Math.abs((firsts.get(carrier) ?? 0) / 1000 - weight)).toBeLessThan(1);
    }
  });

  it("shares a weighted carrier's weight out among the healthy rest when it is unhealthy", () => {
    const candidates = [route('a', { weight: 50 }), route('b', { weight: 25 }), route('c', { weight: 25 })];
    const statuses = [up('a', { bound: false }), up('b'), up('c')];
    expect(order(planRoute(candidates, statuses, { random: draws(0.49) }))).toEqual(['b', 'c', 'a']);
    expect(order(planRoute(candidates, statuses, { random: draws(0.5) }))).toEqual(['c', 'b', 'a']);
  });

  it('draws for a probe before the weights, and both when there is no probe', () => {
    const candidates = [route('a', { weight: 50 }), route('b', { weight: 50 }), route('sick')];
    const statuses = [up('a'), up('b'), up('sick', { degraded: true })];
    expect(order(planRoute(candidates, statuses, { random: draws(0.5, 0.9), probeShare: 0.01 }))).toEqual(['b', 'a', 'sick']);
    expect(order(planRoute(candidates, statuses, { random: draws(0.001), probeShare: 0.01 }))).toEqual(['sick', 'a', 'b']);
  });

  it('does not probe with a share of 0, and refuses a share outside 0..1', () => {
    const candidates = [route('healthy', { cost: 50n }), route('sick', { cost: 10n })];
    const statuses = [up('healthy'), up('sick', { degraded: true })];
    expect(order(planRoute(candidates, statuses, { random: draws(), probeShare: 0 }))).toEqual(['healthy', 'sick']);
    expect(() => planRoute(candidates, statuses, { random: draws(), probeShare: 1.5 })).toThrow(RangeError);
    expect(() => planRoute(candidates, statuses, { random: draws(), probeShare: Number.NaN })).toThrow(RangeError);
  });
});
