import { CommandStatus, NO_RESPONSE, type DeliveryReceipt, type SubmitOutcome } from '@mp/carrier';
import { PlatformMetrics } from '@mp/metrics';
import { parsePrometheusText, sampleSum } from '@mp/testing';
import { CarrierMetrics, submitOutcomeLabel } from './carrier-metrics.service';
import type { CarrierPool } from './carrier-pool.service';

const failed = (commandStatus: number, permanent: boolean): SubmitOutcome => ({ ok: false, permanent, commandStatus, reason: 'x' });
const receipt = (carrierMessageId: string, stat: DeliveryReceipt['stat']): DeliveryReceipt => ({ carrierMessageId, stat, err: '000', doneAt: null, raw: '' });

describe('submitOutcomeLabel', () => {
  it('names each kind of answer', () => {
    expect(submitOutcomeLabel({ ok: true, carrierMessageId: 'a' })).toBe('accepted');
    expect(submitOutcomeLabel(failed(NO_RESPONSE, false))).toBe('timeout');
    expect(submitOutcomeLabel(failed(CommandStatus.ESME_RTHROTTLED, false))).toBe('throttled');
    expect(submitOutcomeLabel(failed(CommandStatus.ESME_RMSGQFUL, false))).toBe('throttled');
    expect(submitOutcomeLabel(failed(CommandStatus.ESME_RSYSERR, false))).toBe('temporary_error');
    expect(submitOutcomeLabel(failed(CommandStatus.ESME_RINVDSTADR, true))).toBe('permanent_error');
  });
});

describe('CarrierMetrics', () => {
  const pool = {
    bindStates: () => [
      { route: 'default', bind: 1, state: 'bound' },
      { route: 'default', bind: 2, state: 'connecting' },
      { route: 'premium', bind: 1, state: 'bound' },
    ],
    windows: () => [{ smsc: 'default', bind: 1, inUse: 3, size: 50 }],
  } as unknown as CarrierPool;

  it('counts submits by SMSC, bind and outcome, receipts by stat, times the receipts the health tracker timed, and reads the binds at scrape time', async () => {
    const metrics = new PlatformMetrics('sms-dispatcher', { defaultMetrics: false });
    const carrier = new CarrierMetrics(pool, metrics);
    metrics.refreshOnScrape('binds', () => carrier.readBinds());
    carrier.submitAnswered('default', 1, { ok: true, carrierMessageId: 'c1' });
    carrier.submitAnswered('default', 1, { ok: true, carrierMessageId: 'c2' });
    carrier.submitAnswered('default', 2, failed(NO_RESPONSE, false));
    carrier.receiptArrived(receipt('c1', 'DELIVRD'), 'default', 1500);
    carrier.receiptArrived(receipt('elsewhere', 'UNDELIV'), 'default', undefined);
    const scrape = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(scrape, 'mp_smsc_submits_total', { smsc: 'default', bind: '1', outcome: 'accepted' })).toBe(2);
    expect(sampleSum(scrape, 'mp_smsc_submits_total', { smsc: 'default', bind: '2', outcome: 'timeout' })).toBe(1);
    expect(sampleSum(scrape, 'mp_receipts_total', { stat: 'DELIVRD' })).toBe(1);
    expect(sampleSum(scrape, 'mp_receipts_total', { stat: 'UNDELIV' })).toBe(1);
    expect(sampleSum(scrape, 'mp_receipt_latency_seconds_count', { smsc: 'default' })).toBe(1);
    expect(sampleSum(scrape, 'mp_receipt_latency_seconds_sum', { smsc: 'default' })).toBe(1.5);
    expect(sampleSum(scrape, 'mp_smsc_binds_bound', { smsc: 'default' })).toBe(1);
    expect(sampleSum(scrape, 'mp_smsc_binds_configured', { smsc: 'default' })).toBe(2);
    expect(sampleSum(scrape, 'mp_smsc_binds_bound', { smsc: 'premium' })).toBe(1);
    expect(sampleSum(scrape, 'mp_smsc_window_in_use', { smsc: 'default', bind: '1' })).toBe(3);
    expect(sampleSum(scrape, 'mp_smsc_window_size', { smsc: 'default', bind: '1' })).toBe(50);
  });

  it("sets each carrier's degraded flag and delivered share over the health window from the pool's view, dropping a share with no receipt", async () => {
    const counters = { submits: 0, throttled: 0, errors: 0, delivered: 0, undelivered: 0, timedReceipts: 0, receiptLatencyMsTotal: 0 };
    let snapshot = [
      { carrier: 'uk', windowMs: 300_000, counters: { ...counters, delivered: 3, undelivered: 1 }, degraded: false, reason: 'too_few_receipts' },
      { carrier: 'de', windowMs: 300_000, counters: { ...counters, undelivered: 60 }, degraded: true, reason: 'delivered_share_collapsed' },
    ];
    const metrics = new PlatformMetrics('sms-dispatcher', { defaultMetrics: false });
    const carrier = new CarrierMetrics({ ...pool, healthSnapshot: () => snapshot } as unknown as CarrierPool, metrics);
    metrics.refreshOnScrape('health', () => carrier.readHealth());
    let scrape = parsePrometheusText((await metrics.scrape()).text);
    const samples = (name: string) => scrape.samples.filter((s) => s.name === name).map((s) => [s.labels['smsc'], s.value]);
    expect(samples('mp_carrier_degraded')).toEqual(
      expect.arrayContaining([
        ['uk', 0],
        ['de', 1],
      ]),
    );
    expect(samples('mp_carrier_delivered_share')).toEqual(
      expect.arrayContaining([
        ['uk', 0.75],
        ['de', 0],
      ]),
    );
    // uk's receipts left the window.
    snapshot = [{ ...snapshot[0], counters }];
    scrape = parsePrometheusText((await metrics.scrape()).text);
    expect(samples('mp_carrier_delivered_share')).toEqual([['de', 0]]);
  });
});
