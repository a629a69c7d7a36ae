import { emptyCounters, type CarrierCounters } from './carrier-health';
import { carrierHealthAcross, type DispatcherCarrierHealth } from './carrier-health-across';

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
});
