import { WEBHOOK_MAX_ATTEMPTS } from '@mp/webhooks';
import { attemptOfJob, deliverJobId, remainingDelayMs, retryDelayAfterFailure, retryDelayMs } from './delivery-schedule';

const id = '6f1c2a56-0000-4000-8000-000000000001';

describe('deliver job ids', () => {
  it('names one job per attempt and reads the attempt back', () => {
    expect(deliverJobId(id, 1)).toBe(`wh-${id}-1`);
    expect(attemptOfJob(deliverJobId(id, 12), id)).toBe(12);
  });

  it.each([`wh-${id}-0`, `wh-${id}-x`, `wh-${id}-1.5`, `wh-other-1`, '123'])('reads no attempt from %p', (jobId) => {
    expect(attemptOfJob(jobId, id)).toBeNull();
  });
});

describe('retryDelayMs', () => {
  it('is the libs/webhooks schedule, scaled', () => {
    expect(retryDelayMs(1, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayMs(1, 0.001, () => 0.5)).toBe(5);
    expect(retryDelayMs(12, 2, () => 0.5)).toBe(2 * 43_200_000);
  });

  it('never schedules a zero delay, and says null after the last attempt', () => {
    expect(retryDelayMs(1, 0.00001, () => 0)).toBe(1);
    expect(retryDelayMs(WEBHOOK_MAX_ATTEMPTS - 1, 1)).not.toBeNull();
    expect(retryDelayMs(WEBHOOK_MAX_ATTEMPTS, 1)).toBeNull();
  });
});

describe('remainingDelayMs', () => {
  it('counts down to the recorded next attempt, never below zero', () => {
    expect(remainingDelayMs(new Date(10_500), 10_000)).toBe(500);
    expect(remainingDelayMs(new Date(9_000), 10_000)).toBe(0);
    expect(remainingDelayMs(null, 10_000)).toBe(0);
  });
});

describe('retryDelayAfterFailure', () => {
  it('follows the schedule for a delivery never resent', () => {
    expect(retryDelayAfterFailure(1, null, 1, () => 0.5)).toBe(5_000);
    expect(retryDelayAfterFailure(WEBHOOK_MAX_ATTEMPTS, null, 1)).toBeNull();
  });

  it("dead-letters at once when a resend's one attempt fails, whatever the schedule had left", () => {
    expect(retryDelayAfterFailure(2, 2, 1)).toBeNull();
    expect(retryDelayAfterFailure(WEBHOOK_MAX_ATTEMPTS + 1, WEBHOOK_MAX_ATTEMPTS + 1, 1)).toBeNull();
  });

  it('retries on schedule the attempts made before a resend was asked for', () => {
    expect(retryDelayAfterFailure(1, 3, 1, () => 0.5)).toBe(5_000);
  });
});
