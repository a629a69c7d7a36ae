import {
  addCounters,
  carrierHealth,
  countersInWindow,
  DEFAULT_DEGRADATION_THRESHOLDS,
  emptyCounters,
  nextDegraded,
  type CarrierCounters,
  type CarrierHealth,
} from './carrier-health';

const counters = (values: Partial<CarrierCounters>): CarrierCounters => ({ ...emptyCounters(), ...values });
const withShare = (delivered: number, undelivered: number): CarrierHealth => carrierHealth(counters({ delivered, undelivered }), 60_000);

describe('carrier health', () => {
  it('adds counters field by field', () => {
    const a = counters({ submits: 3, throttled: 1, errors: 1, delivered: 2, undelivered: 1, timedReceipts: 2, receiptLatencyMsTotal: 900 });
    expect(addCounters(a, a)).toEqual({
      submits: 6,
      throttled: 2,
      errors: 2,
      delivered: 4,
      undelivered: 2,
      timedReceipts: 4,
      receiptLatencyMsTotal: 1800,
    });
  });

  it('sums the buckets that started within the window', () => {
    const buckets = [0, 10_000, 20_000, 30_000].map((startMs) => ({ startMs, counters: counters({ submits: startMs / 10_000 + 1 }) }));
    // Bucket k holds k + 1 submits. At 35 s, a 20 s window holds the buckets of 20 s and 30 s: 3 + 4.
    expect(countersInWindow(buckets, 35_000, 20_000).submits).toBe(7);
    expect(countersInWindow(buckets, 30_000, 20_000).submits).toBe(7);
    expect(countersInWindow(buckets, 100_000, 20_000)).toEqual(emptyCounters());
    expect(countersInWindow(buckets, 5_000, 60_000).submits).toBe(1);
  });

  it('computes rates, the delivered share and the mean receipt latency', () => {
    const health = carrierHealth(
      counters({ submits: 600, throttled: 60, errors: 6, delivered: 450, undelivered: 50, timedReceipts: 500, receiptLatencyMsTotal: 1_000_000 }),
      60_000,
    );
    expect(health).toEqual({ submitsPerSecond: 10, throttledRate: 0.1, errorRate: 0.01, receipts: 500, deliveredShare: 0.9, meanReceiptLatencyMs: 2000 });
  });

  it('divides the latency by the receipts that were timed, not by every receipt', () => {
    // 500 receipts, 100 of them timed (the others' submits were made by another dispatcher or too long ago).
    const health = carrierHealth(counters({ delivered: 500, timedReceipts: 100, receiptLatencyMsTotal: 300_000 }), 60_000);
    expect(health.meanReceiptLatencyMs).toBe(3000);
    expect(carrierHealth(counters({ delivered: 5 }), 60_000).meanReceiptLatencyMs).toBeNull();
  });

  it('answers null where nothing was counted', () => {
    expect(carrierHealth(emptyCounters(), 60_000)).toEqual({
      submitsPerSecond: 0,
      throttledRate: null,
      errorRate: null,
      receipts: 0,
      deliveredShare: null,
      meanReceiptLatencyMs: null,
    });
    expect(() => carrierHealth(emptyCounters(), 0)).toThrow(RangeError);
  });
});

describe('nextDegraded', () => {
  it('degrades a carrier whose delivered share collapses over enough receipts', () => {
    expect(nextDegraded(false, withShare(20, 80))).toEqual({ degraded: true, changed: true, reason: 'delivered_share_collapsed' });
  });

  it('does not judge a healthy carrier on too few receipts', () => {
    expect(nextDegraded(false, withShare(0, 49))).toEqual({ degraded: false, changed: false, reason: 'too_few_receipts' });
    expect(nextDegraded(false, withShare(0, 0))).toEqual({ degraded: false, changed: false, reason: 'too_few_receipts' });
  });

  it('keeps a healthy carrier healthy at or above the degrade threshold', () => {
    expect(nextDegraded(false, withShare(50, 50))).toEqual({ degraded: false, changed: false, reason: 'delivering' });
    expect(nextDegraded(false, withShare(60, 40))).toEqual({ degraded: false, changed: false, reason: 'delivering' });
  });

  it('keeps a degraded carrier degraded between the thresholds (hysteresis)', () => {
    expect(nextDegraded(true, withShare(70, 30))).toEqual({ degraded: true, changed: false, reason: 'not_recovered' });
    expect(nextDegraded(true, withShare(79, 21))).toMatchObject({ degraded: true, changed: false });
  });

  it('recovers a degraded carrier at the recover threshold, on the smaller probe sample', () => {
    expect(nextDegraded(true, withShare(16, 4))).toEqual({ degraded: false, changed: true, reason: 'delivered_share_recovered' });
    expect(nextDegraded(true, withShare(19, 0))).toEqual({ degraded: true, changed: false, reason: 'too_few_receipts' });
  });

  it('follows a carrier through collapse and recovery without flapping', () => {
    const shares = [
      [95, 5],
      [30, 70],
      [60, 40],
      [75, 25],
      [85, 15],
      [60, 40],
    ];
    let degraded = false;
    const seen = shares.map(([delivered, undelivered]) => (degraded = nextDegraded(degraded, withShare(delivered, undelivered)).degraded));
    expect(seen).toEqual([false, true, true, true, false, false]);
  });

  it('refuses thresholds without a gap or outside 0..1', () => {
    const base = DEFAULT_DEGRADATION_THRESHOLDS;
    expect(() => nextDegraded(false, withShare(1, 1), { ...base, degradeBelow: 0.8, recoverAtOrAbove: 0.8 })).toThrow(RangeError);
    expect(() => nextDegraded(false, withShare(1, 1), { ...base, recoverAtOrAbove: 1.2 })).toThrow(RangeError);
    expect(() => nextDegraded(false, withShare(1, 1), { ...base, minReceipts: 0 })).toThrow(RangeError);
  });
});
