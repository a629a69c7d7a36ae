import { emptyCounters, type CarrierCounters } from './carrier-health';
import { carrierHealthAcross, shownCarrierHealth, type DispatcherCarrierHealth } from './carrier-health-across';

const report = (dispatcher: string, carrier: string, counters: Partial<CarrierCounters>, degraded = false, reason = 'delivering'): DispatcherCarrierHealth => ({
  dispatcher,
  carrier,
  windowMs: 300_000,
  counters: { ...emptyCounters(), ...counters },
  degraded,
  reason,
});

describe('carrierHealthAcross', () => {
  it('sums a carrier over the dispatchers and computes its rates from the sums', () => {
    const across = carrierHealthAcross([
      report('a:1', 'uk', { submits: 600, throttled: 30, delivered: 90, undelivered: 10, timedReceipts: 100, receiptLatencyMsTotal: 100_000 }),
      report(
        'b:2',
        'uk',
        { submits: 900, errors: 15, delivered: 10, undelivered: 90, timedReceipts: 50, receiptLatencyMsTotal: 200_000 },
        true,
        'delivered_share_collapsed',
      ),
      report('a:1', 'de', { submits: 3 }),
    ]);
    expect([...across.keys()]).toEqual(['de', 'uk']);
    const uk = across.get('uk');
    expect(uk).toMatchObject({
      dispatchers: 2,
      degradedBy: 1,
      reasons: ['delivered_share_collapsed', 'delivering'],
      counters: { submits: 1500, throttled: 30, errors: 15, delivered: 100, undelivered: 100, timedReceipts: 150, receiptLatencyMsTotal: 300_000 },
    });
    expect(uk?.health).toEqual({ submitsPerSecond: 5, throttledRate: 0.02, errorRate: 0.01, receipts: 200, deliveredShare: 0.5, meanReceiptLatencyMs: 2000 });
    expect(across.get('de')).toMatchObject({ dispatchers: 1, degradedBy: 0, health: { submitsPerSecond: 0.01, deliveredShare: null } });
  });

  it('answers nothing when no dispatcher reported', () => {
    expect(carrierHealthAcross([]).size).toBe(0);
  });

  it('shows rates rounded, the latency in whole ms, and degraded when any dispatcher judges so', () => {
    const across = carrierHealthAcross([
      report('a:1', 'uk', { submits: 10, throttled: 1, delivered: 2, undelivered: 1, timedReceipts: 3, receiptLatencyMsTotal: 1000 }),
      report('b:2', 'uk', { submits: 0 }, true, 'delivered_share_collapsed'),
    ]).get('uk');
    expect(across && shownCarrierHealth(across)).toEqual({
      window_seconds: 300,
      dispatchers: 2,
      submits: 10,
      submits_per_second: 0.033,
      throttled_rate: 0.1,
      error_rate: 0,
      receipts: 3,
      delivered_share: 0.6667,
      mean_receipt_latency_ms: 333,
      degraded: true,
      degraded_by: 1,
      reasons: ['delivered_share_collapsed', 'delivering'],
    });
  });
});
