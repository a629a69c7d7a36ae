import type { Counter } from 'prom-client';
import type { PlatformMetrics } from './platform-metrics';

/** What a ledger entry was for: the `kind` label of the billing metrics. */
export type LedgerMetricKind = 'sms' | 'campaign' | 'otp';

interface Series {
  entries: Counter.Internal;
  units: Counter.Internal;
}

/**
 * mp_billing_debits_total / _debited_units_total and mp_billing_refunds_total /
 * _refunded_units_total, counted by the app that wrote the ledger entry once its transaction
 * committed. Amounts are Money (1/10000 of the currency unit).
 */
export class LedgerMetrics {
  private readonly debitSeries: (kind: LedgerMetricKind) => Series;
  private readonly refundSeries: (kind: LedgerMetricKind) => Series;

  constructor(metrics: PlatformMetrics) {
    this.debitSeries = seriesBy(metrics.counter('mp_billing_debits_total'), metrics.counter('mp_billing_debited_units_total'));
    this.refundSeries = seriesBy(metrics.counter('mp_billing_refunds_total'), metrics.counter('mp_billing_refunded_units_total'));
  }

  /** `entries` charges written, of `amount` in all. */
  debited(kind: LedgerMetricKind, amount: bigint, entries = 1): void {
    const series = this.debitSeries(kind);
    series.entries.inc(entries);
    series.units.inc(Number(amount));
  }

  /** One refund written, of `amount`. */
  refunded(kind: LedgerMetricKind, amount: bigint): void {
    const series = this.refundSeries(kind);
    series.entries.inc();
    series.units.inc(Number(amount));
  }
}

function seriesBy(entries: Counter<'kind'>, units: Counter<'kind'>): (kind: LedgerMetricKind) => Series {
  const byKind = new Map<LedgerMetricKind, Series>();
  return (kind) => {
    let series = byKind.get(kind);
    if (!series) byKind.set(kind, (series = { entries: entries.labels({ kind }), units: units.labels({ kind }) }));
    return series;
  };
}
