import { CommandStatus } from '@mp/carrier';
import { CarrierHealthTracker, HEALTH_WINDOW_MS } from './carrier-health-tracker';

describe('CarrierHealthTracker', () => {
  let now = 1_000_000;
  const thresholds = { degradeBelow: 0.5, minReceipts: 10, recoverAtOrAbove: 0.8, minReceiptsToRecover: 5 };
  const receipts = (tracker: CarrierHealthTracker, carrier: string, delivered: number, undelivered: number) => {
    for (let i = 0; i < delivered; i++) tracker.receiptArrived(carrier, { stat: 'DELIVRD' });
    for (let i = 0; i < undelivered; i++) tracker.receiptArrived(carrier, { stat: 'UNDELIV' });
  };

  it('marks a carrier whose delivered share collapsed degraded, leaves the others, and clears it once it delivers again', () => {
    const tracker = new CarrierHealthTracker(() => now, thresholds);
    receipts(tracker, 'bad', 2, 10);
    receipts(tracker, 'good', 12, 0);
    tracker.receiptArrived('good', { stat: 'ENROUTE' });
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
});
