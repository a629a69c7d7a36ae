import type { MessageRefundService, RefundOutcome } from '@mp/messaging';
import { PlatformMetrics } from '@mp/metrics';
import { parsePrometheusText, sampleSum } from '@mp/testing';
import { RefundProcessor } from './refund.processor';

describe('RefundProcessor', () => {
  it('counts a refund written with its amount, and none when there was nothing to refund', async () => {
    const outcomes: RefundOutcome[] = [
      { refunded: 700n, balance: 10_000n },
      { refunded: 0n, reason: 'already-refunded' },
    ];
    const refunds = { refund: async () => outcomes.shift() } as unknown as MessageRefundService;
    const metrics = new PlatformMetrics('billing', { defaultMetrics: false });
    const processor = new RefundProcessor(refunds, metrics);
    expect(await processor.handle({ messageId: 'm1' })).toEqual({ messageId: 'm1', refunded: 0.07 });
    expect(await processor.handle({ messageId: 'm2' })).toEqual({ messageId: 'm2', refunded: 0, reason: 'already-refunded' });
    const scrape = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(scrape, 'mp_billing_refunds_total', { kind: 'sms', app: 'billing' })).toBe(1);
    expect(sampleSum(scrape, 'mp_billing_refunded_units_total', { kind: 'sms' })).toBe(700);
  });
});
