import { CommandStatus } from '@mp/carrier';
import { carrierHealth } from '@mp/routing-domain';
import { CarrierHealthTracker, HEALTH_WINDOW_MS } from './carrier-health-tracker';

describe('CarrierHealthTracker', () => {
  let now = 1_000_000;
  const thresholds = { degradeBelow: 0.5, minReceipts: 10, recoverAtOrAbove: 0.8, minReceiptsToRecover: 5 };
  const receipts = (tracker: CarrierHealthTracker, carrier: string, delivered: number, undelivered: number) => {
    for (let i = 0; i < delivered; i++) tracker.receiptArrived(carrier, { stat: 'DELIVRD', carrierMessageId: `d${i}` });
    for (let i = 0; i < undelivered; i++) tracker.receiptArrived(carrier, { stat: 'UNDELIV', carrierMessageId: `u${i}` });
  };

  it('marks a carrier whose delivered share collapsed degraded, leaves the others, and clears it once it delivers again', () => {
    const tracker = new CarrierHealthTracker(() => now, thresholds);
    receipts(tracker, 'bad', 2, 10);
    receipts(tracker, 'good', 12, 0);
    tracker.receiptArrived('good', { stat: 'ENROUTE', carrierMessageId: 'e' });
    expect(tracker.evaluate()).toEqual([expect.objectContaining({ carrier: 'bad', degraded: true, reason: 'delivered_share_collapsed' })]);
    expect([tracker.isDegraded('bad'), tracker.isDegraded('good')]).toEqual([true, false]);

    // The bad slice leaves the window; the probes it gets deliver.
    now += HEALTH_WINDOW_MS + 1;
    receipts(tracker, 'bad', 5, 0);
    expect(tracker.evaluate()).toEqual([expect.objectContaining({ carrier: 'bad', degraded: false, reason: 'delivered_share_recovered' })]);
    expect(tracker.isDegraded('bad')).toBe(false);
  });

  it('counts throttling and errors of submits without judging on them', () => {
    const tracker = new CarrierHealthTracker(() => now, thresholds);
    tracker.submitAnswered('a', { ok: true, carrierMessageId: '1' });
    tracker.submitAnswered('a', { ok: false, permanent: false, commandStatus: CommandStatus.ESME_RTHROTTLED, reason: 'x' });
    tracker.submitAnswered('a', { ok: false, permanent: true, commandStatus: CommandStatus.ESME_RINVDSTADR, reason: 'x' });
    expect(tracker.evaluate()).toEqual([]);
    expect(tracker.isDegraded('a')).toBe(false);
  });

  it('times a final receipt from its accepted submit, once, and counts the untimed ones apart', () => {
    const tracker = new CarrierHealthTracker(() => now, thresholds);
    tracker.submitAnswered('a', { ok: true, carrierMessageId: 'm1' });
    tracker.submitAnswered('a', { ok: true, carrierMessageId: 'm2' });
    tracker.submitAnswered('b', { ok: true, carrierMessageId: 'm3' });
    now += 2000;
    // An intermediate receipt is neither counted nor timed; the final one that follows is.
    expect(tracker.receiptArrived('a', { stat: 'ENROUTE', carrierMessageId: 'm1' })).toBeUndefined();
    expect(tracker.receiptArrived('a', { stat: 'DELIVRD', carrierMessageId: 'm1' })).toBe(2000);
    now += 2000;
    expect(tracker.receiptArrived('a', { stat: 'UNDELIV', carrierMessageId: 'm2' })).toBe(4000);
    // A repeat of m1's receipt, one of a submit this process never made, and m3 arriving over another carrier: counted, not timed.
    expect(tracker.receiptArrived('a', { stat: 'DELIVRD', carrierMessageId: 'm1' })).toBeUndefined();
    expect(tracker.receiptArrived('a', { stat: 'DELIVRD', carrierMessageId: 'elsewhere' })).toBeUndefined();
    expect(tracker.receiptArrived('a', { stat: 'DELIVRD', carrierMessageId: 'm3' })).toBeUndefined();
    const a = tracker.snapshot().find((s) => s.carrier === 'a');
    expect(a?.counters).toEqual({ submits: 2, throttled: 0, errors: 0, delivered: 4, undelivered: 1, timedReceipts: 2, receiptLatencyMsTotal: 6000 });
    expect(a && carrierHealth(a.counters, HEALTH_WINDOW_MS).meanReceiptLatencyMs).toBe(3000);
  });

  it('snapshots each carrier over the window with its flag and the reason of its last judgement', () => {
    const tracker = new CarrierHealthTracker(() => now, thresholds);
    receipts(tracker, 'bad', 0, 10);
    tracker.submitAnswered('quiet', { ok: true, carrierMessageId: 'q' });
    expect(tracker.snapshot().map((s) => [s.carrier, s.degraded, s.reason])).toEqual([
      ['bad', false, 'too_few_receipts'],
      ['quiet', false, 'too_few_receipts'],
    ]);
    tracker.evaluate();
    expect(tracker.snapshot()).toEqual([
      {
        carrier: 'bad',
        windowMs: HEALTH_WINDOW_MS,
        counters: expect.objectContaining({ undelivered: 10 }),
        degraded: true,
        reason: 'delivered_share_collapsed',
      },
      { carrier: 'quiet', windowMs: HEALTH_WINDOW_MS, counters: expect.objectContaining({ submits: 1 }), degraded: false, reason: 'too_few_receipts' },
    ]);
    now += HEALTH_WINDOW_MS + 1;
    expect(tracker.snapshot().map((s) => s.counters.undelivered + s.counters.submits)).toEqual([0, 0]);
  });
});
