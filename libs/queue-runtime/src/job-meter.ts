/**
 * What QueueWorkerHost tells about the jobs it runs, for the app's metrics (libs/metrics
 * provides it under JOB_METER; without one nothing is counted). Queue and job names are the
 * contracts' own, never a payload's.
 */
export interface JobMeter {
  /** A run ended: how long the handler took and whether it threw. */
  ran(queue: string, job: string, outcome: 'completed' | 'failed', seconds: number): void;
  /** A run failed; `final` when BullMQ will not try it again. */
  failed(queue: string, job: string, final: boolean): void;
}

export const JOB_METER = Symbol('JOB_METER');
