import { dispatchJobsFor, MESSAGES_PER_DISPATCH_JOB, scheduledDispatchJobId } from './dispatch-jobs';

describe('dispatchJobsFor', () => {
  const now = new Date('2026-11-22T10:00:00Z');

  it('puts messages due now into shared jobs of at most MESSAGES_PER_DISPATCH_JOB ids, in order', () => {
    const messages = Array.from({ length: MESSAGES_PER_DISPATCH_JOB + 1 }, (_, i) => ({ id: `m${i}`, scheduledAt: null }));
    const jobs = dispatchJobsFor(messages, now);
    expect(jobs.map((job) => (job.data as { messageIds: string[] }).messageIds.length)).toEqual([MESSAGES_PER_DISPATCH_JOB, 1]);
    expect(jobs.flatMap((job) => (job.data as { messageIds: string[] }).messageIds)).toEqual(messages.map((m) => m.id));
    expect(jobs.every((job) => job.queue === 'sms.dispatch' && job.jobName === 'sms.submit' && job.notBefore === now)).toBe(true);
    expect(new Set(jobs.map((job) => job.jobId)).size).toBe(2);
  });

  it('gives each scheduled message its own job, due at its time, that its cancellation can find', () => {
    const at = new Date('2026-11-23T08:00:00Z');
    const jobs = dispatchJobsFor(
      [
        { id: 'now', scheduledAt: null },
        { id: 'later', scheduledAt: at },
      ],
      now,
    );
    expect(jobs).toHaveLength(2);
    expect(jobs[1]).toMatchObject({ jobId: scheduledDispatchJobId('later'), data: { messageIds: ['later'] }, notBefore: at });
  });

  it('makes no job for no messages', () => {
    expect(dispatchJobsFor([], now)).toEqual([]);
  });
});
