import type { JobMeter } from '@mp/queue-runtime';
import type { Counter, Histogram } from 'prom-client';
import type { PlatformMetrics } from './platform-metrics';

/** QueueWorkerHost's JobMeter on prom-client: mp_job_duration_seconds and mp_job_failures_total. */
export class PrometheusJobMeter implements JobMeter {
  private readonly duration: Histogram<'queue' | 'job' | 'outcome'>;
  private readonly failures: Counter<'queue' | 'job' | 'final'>;

  constructor(metrics: PlatformMetrics) {
    this.duration = metrics.histogram('mp_job_duration_seconds');
    this.failures = metrics.counter('mp_job_failures_total');
  }

  ran(queue: string, job: string, outcome: 'completed' | 'failed', seconds: number): void {
    this.duration.observe({ queue, job, outcome }, seconds);
  }

  failed(queue: string, job: string, final: boolean): void {
    this.failures.inc({ queue, job, final: final ? 'true' : 'false' });
  }
}
