/**
 * Every metric the platform exports beside prom-client's defaults: name, type, labels and help.
 * docs/metrics.md documents the same table; metrics-doc.spec.ts keeps the two in step.
 */

/** Seconds: from a fast request (1 ms) to a slow job (a minute). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Receipts come seconds to hours after the submit. */
const RECEIPT_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 14_400, 86_400];

interface Definition {
  type: 'counter' | 'gauge' | 'histogram';
  labels: readonly string[];
  help: string;
  buckets?: readonly number[];
}

export const METRIC_DEFINITIONS = {
  mp_http_requests_total: { type: 'counter', labels: ['method', 'route', 'status'], help: 'HTTP requests answered, by declared route pattern' },
  mp_http_request_duration_seconds: {
    type: 'histogram',
    labels: ['method', 'route', 'status'],
    help: 'Time to answer an HTTP request',
    buckets: LATENCY_BUCKETS,
  },
  mp_queue_jobs: { type: 'gauge', labels: ['queue', 'state'], help: 'Jobs per queue and state (waiting, prioritized, delayed, due, active, failed)' },
  mp_queue_backlog: { type: 'gauge', labels: ['queue'], help: 'Jobs waiting for a worker: waiting + prioritized + delayed and due' },
  mp_job_duration_seconds: { type: 'histogram', labels: ['queue', 'job', 'outcome'], help: 'Run time of a job', buckets: LATENCY_BUCKETS },
  mp_job_failures_total: { type: 'counter', labels: ['queue', 'job', 'final'], help: 'Failed job runs; final="true" when no attempt is left' },
  mp_outbox_pending: { type: 'gauge', labels: [], help: 'Outbox rows committed but not yet enqueued in Redis' },
  mp_smsc_binds_bound: { type: 'gauge', labels: ['smsc'], help: 'SMSC binds currently bound' },
  mp_smsc_binds_configured: { type: 'gauge', labels: ['smsc'], help: 'SMSC binds configured' },
  mp_smsc_submits_total: { type: 'counter', labels: ['smsc', 'bind', 'outcome'], help: 'submit_sm answered, by outcome' },
  mp_smsc_window_in_use: { type: 'gauge', labels: ['smsc', 'bind'], help: 'submit_sm awaiting their response' },
  mp_smsc_window_size: { type: 'gauge', labels: ['smsc', 'bind'], help: 'The window of outstanding submit_sm of a bind' },
  mp_receipts_total: { type: 'counter', labels: ['smsc', 'stat'], help: 'Delivery receipts (deliver_sm) by stat' },
  mp_receipt_latency_seconds: { type: 'histogram', labels: ['smsc'], help: 'From submit_sm_resp to the delivery receipt', buckets: RECEIPT_BUCKETS },
  mp_carrier_degraded: { type: 'gauge', labels: ['smsc'], help: 'This dispatcher judges the carrier degraded (1): it gets probe traffic only' },
  mp_carrier_delivered_share: { type: 'gauge', labels: ['smsc'], help: 'Delivered share of the final receipts of the last five minutes' },
  mp_webhook_attempts_total: {
    type: 'counter',
    labels: ['outcome'],
    help: 'Webhook attempts: delivered, failed (will retry or dead-letter), refused (address guard)',
  },
  mp_webhook_dead_letters_total: { type: 'counter', labels: [], help: 'Webhook deliveries dead-lettered' },
  mp_webhook_attempt_duration_seconds: { type: 'histogram', labels: ['outcome'], help: 'Time of one webhook attempt', buckets: LATENCY_BUCKETS },
  mp_otp_sent_total: { type: 'counter', labels: ['channel'], help: 'OTPs sent (resends included)' },
  mp_otp_verifications_total: { type: 'counter', labels: ['result'], help: 'OTP verify attempts by result' },
  mp_otp_blocked_total: { type: 'counter', labels: [], help: 'Recipients blocked after too many wrong codes' },
  mp_billing_debits_total: { type: 'counter', labels: ['kind'], help: 'Charges written to the ledger' },
  mp_billing_debited_units_total: { type: 'counter', labels: ['kind'], help: 'Amount charged, in 1/10000 of the currency unit' },
  mp_billing_refunds_total: { type: 'counter', labels: ['kind'], help: 'Refunds written to the ledger' },
  mp_billing_refunded_units_total: { type: 'counter', labels: ['kind'], help: 'Amount refunded, in 1/10000 of the currency unit' },
  mp_ledger_balance_mismatches: { type: 'gauge', labels: [], help: 'Companies whose balance differs from their latest ledger entry' },
} as const satisfies Record<string, Definition>;

export type MetricName = keyof typeof METRIC_DEFINITIONS;
type Defs = typeof METRIC_DEFINITIONS;
type NamesOf<T extends Definition['type']> = { [K in MetricName]: Defs[K]['type'] extends T ? K : never }[MetricName];
export type CounterName = NamesOf<'counter'>;
export type GaugeName = NamesOf<'gauge'>;
export type HistogramName = NamesOf<'histogram'>;
/** The label names of a metric, as a union (never when it has none). */
export type LabelOf<N extends MetricName> = Defs[N]['labels'][number];
