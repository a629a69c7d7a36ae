import { Injectable, OnModuleInit } from '@nestjs/common';
import type { DeliveryReceipt, SubmitOutcome } from '@mp/carrier';
import { PlatformMetrics } from '@mp/metrics';
import { carrierHealth } from '@mp/routing-domain';
import type { Counter, Gauge, Histogram } from 'prom-client';
import { CarrierPool } from './carrier-pool.service';
import { submitOutcomeLabel, type SubmitOutcomeLabel } from './submit-outcome-label';

export { submitOutcomeLabel, type SubmitOutcomeLabel } from './submit-outcome-label';

/**
 * SMSC metrics of the dispatcher: submits by bind and outcome and receipts by stat, counted as
 * they come (a few map lookups each); binds and windows read from the pool at scrape time.
 */
@Injectable()
export class CarrierMetrics implements OnModuleInit {
  private readonly submits: Counter<'smsc' | 'bind' | 'outcome'>;
  private readonly submitSeries = new Map<string, Map<number, Map<SubmitOutcomeLabel, Counter.Internal>>>();
  private readonly receipts: Counter<'smsc' | 'stat'>;
  private readonly receiptLatency: Histogram<'smsc'>;
  private readonly bound: Gauge<'smsc'>;
  private readonly configured: Gauge<'smsc'>;
  private readonly windowInUse: Gauge<'smsc' | 'bind'>;
  private readonly windowSize: Gauge<'smsc' | 'bind'>;
  private readonly degraded: Gauge<'smsc'>;
  private readonly deliveredShare: Gauge<'smsc'>;

  constructor(
    private readonly carrier: CarrierPool,
    private readonly metrics: PlatformMetrics,
  ) {
    this.submits = metrics.counter('mp_smsc_submits_total');
    this.receipts = metrics.counter('mp_receipts_total');
    this.receiptLatency = metrics.histogram('mp_receipt_latency_seconds');
    this.bound = metrics.gauge('mp_smsc_binds_bound');
    this.configured = metrics.gauge('mp_smsc_binds_configured');
    this.windowInUse = metrics.gauge('mp_smsc_window_in_use');
    this.windowSize = metrics.gauge('mp_smsc_window_size');
    this.degraded = metrics.gauge('mp_carrier_degraded');
    this.deliveredShare = metrics.gauge('mp_carrier_delivered_share');
  }

  onModuleInit(): void {
    this.carrier.onSubmitAnswered((smsc, bind, outcome) => this.submitAnswered(smsc, bind, outcome));
    this.carrier.onReceiptTimed((receipt, smsc, latencyMs) => this.receiptArrived(receipt, smsc, latencyMs));
    this.metrics.refreshOnScrape('smsc binds', () => this.readBinds());
    this.metrics.refreshOnScrape('carrier health', () => this.readHealth());
  }

  submitAnswered(smsc: string, bind: number, outcome: SubmitOutcome): void {
    const label = submitOutcomeLabel(outcome);
    this.submitCounter(smsc, bind, label).inc();
  }

  /** Counts the receipt; one the health tracker timed (a final receipt of a recent submit) gives mp_receipt_latency_seconds. */
  receiptArrived(receipt: DeliveryReceipt, smsc: string, latencyMs?: number): void {
    this.receipts.inc({ smsc, stat: receipt.stat });
    if (latencyMs !== undefined) this.receiptLatency.observe({ smsc }, latencyMs / 1000);
  }

  /** Sets the bind and window gauges from the pool (before each scrape). */
  readBinds(): void {
    const bySmsc = new Map<string, { bound: number; configured: number }>();
    for (const { route, state } of this.carrier.bindStates()) {
      const counts = bySmsc.get(route) ?? { bound: 0, configured: 0 };
      counts.configured++;
      if (state === 'bound') counts.bound++;
      bySmsc.set(route, counts);
    }
    for (const [smsc, counts] of bySmsc) {
      this.bound.set({ smsc }, counts.bound);
      this.configured.set({ smsc }, counts.configured);
    }
    for (const { smsc, bind, inUse, size } of this.carrier.windows()) {
      this.windowInUse.set({ smsc, bind: String(bind) }, inUse);
      this.windowSize.set({ smsc, bind: String(bind) }, size);
    }
  }

  /** Sets the health gauges from this process's view of each carrier; a share with no receipt in the window is no sample. */
  readHealth(): void {
    for (const { carrier: smsc, windowMs, counters, degraded } of this.carrier.healthSnapshot()) {
      this.degraded.set({ smsc }, degraded ? 1 : 0);
      const share = carrierHealth(counters, windowMs).deliveredShare;
      if (share === null) this.deliveredShare.remove({ smsc });
      else this.deliveredShare.set({ smsc }, share);
    }
  }

  private submitCounter(smsc: string, bind: number, outcome: SubmitOutcomeLabel): Counter.Internal {
    let byBind = this.submitSeries.get(smsc);
    if (!byBind) this.submitSeries.set(smsc, (byBind = new Map()));
    let byOutcome = byBind.get(bind);
    if (!byOutcome) byBind.set(bind, (byOutcome = new Map()));
    let series = byOutcome.get(outcome);
    if (!series) byOutcome.set(outcome, (series = this.submits.labels({ smsc, bind: String(bind), outcome })));
    return series;
  }
}
