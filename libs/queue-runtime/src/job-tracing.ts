import {
  activeTraceparent,
  contextOfTraceparent,
  failSpan,
  spanContextOfTraceparent,
  SpanKind,
  startSpan,
  tracingOn,
  withSpan,
  type Span,
} from '@mp/observability';
import type { JobTrace } from '@mp/queue-contracts';

/** Spans link to at most this many jobs' traces (an outbox sweep of a thousand jobs). */
const MAX_LINKS = 128;

/**
 * A job's data with the traceparent of the work under way (the span active now), so that the
 * job's run continues its trace; the data itself when not tracing.
 */
export function tracedJobData<T>(data: T): T {
  const traceparent = activeTraceparent();
  return traceparent ? ({ ...(data as object), traceparent } as T) : data;
}

/** tracedJobData of each job; the jobs themselves when not tracing. */
export function tracedJobs<J extends { data: unknown }>(jobs: readonly J[]): readonly J[] {
  return tracingOn() ? jobs.map((job) => ({ ...job, data: tracedJobData(job.data) })) : jobs;
}

/** The traceparent a job's data carries, if any. */
export function traceparentOf(data: unknown): string | undefined {
  const value = typeof data === 'object' && data !== null ? (data as JobTrace).traceparent : undefined;
  return typeof value === 'string' ? value : undefined;
}

export interface RunningJob {
  queue: string;
  jobId: string;
  name: string;
  attempt: number;
  data: unknown;
}

/** The span of one run of a job: a child of the work that made it (its traceparent), else a root. */
export function startJobSpan(job: RunningJob): Span | undefined {
  return startSpan(`${job.queue} process`, {
    kind: SpanKind.CONSUMER,
    parent: contextOfTraceparent(traceparentOf(job.data)),
    attributes: {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'process',
      'messaging.destination.name': job.queue,
      'messaging.message.id': job.jobId,
      'bullmq.job.name': job.name,
      'bullmq.job.attempt': job.attempt,
    },
  });
}

/**
 * The span of adding jobs to their queues: a child of the active work (the commit that made them,
 * for a relay); with `linkJobs`, linked to the jobs' own traces, which are not the active work's
 * (the sweeper's).
 */
export function startEnqueueSpan(name: string, jobs: readonly { queue: string; data: unknown }[], linkJobs = false): Span | undefined {
  const links = (linkJobs ? jobs.slice(0, MAX_LINKS) : [])
    .map((job) => spanContextOfTraceparent(traceparentOf(job.data)))
    .filter((context) => context !== undefined)
    .map((context) => ({ context }));
  return startSpan(name, {
    kind: SpanKind.PRODUCER,
    links,
    attributes: {
      'messaging.system': 'bullmq',
      'messaging.operation.type': 'send',
      'messaging.batch.message_count': jobs.length,
      'messaging.destination.name': [...new Set(jobs.map((job) => job.queue))].join(','),
    },
  });
}

/** Runs a job's handler in the job's span (startJobSpan), ended when it settles; just runs it when not tracing. */
export async function runInJobSpan<T>(job: RunningJob, work: () => Promise<T>): Promise<T> {
  if (!tracingOn()) return work();
  const span = startJobSpan(job);
  if (!span) return work();
  try {
    return await withSpan(span, work);
  } catch (error) {
    failSpan(span, error);
    throw error;
  } finally {
    span.end();
  }
}
