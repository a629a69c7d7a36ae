import { nextWebhookDelayMs, WEBHOOK_MAX_ATTEMPTS, WEBHOOK_RETRY_DELAYS_SECONDS, WEBHOOK_RETRY_JITTER } from './retry-schedule';

const DAY_MS = 24 * 3600 * 1000;
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
const delaysWith = (random: () => number) => Array.from({ length: WEBHOOK_MAX_ATTEMPTS - 1 }, (_, i) => nextWebhookDelayMs(i + 1, random) as number);

describe('webhook retry schedule', () => {
  it('is the documented list, never shrinking', () => {
    expect(WEBHOOK_RETRY_DELAYS_SECONDS).toEqual([5, 30, 120, 300, 900, 1800, 3600, 7200, 14400, 28800, 43200, 43200]);
    expect(WEBHOOK_MAX_ATTEMPTS).toBe(13);
    WEBHOOK_RETRY_DELAYS_SECONDS.slice(1).forEach((delay, i) => expect(delay).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_SECONDS[i]));
  });

  it('spans at least 24 hours, even when every delay is jittered short', () => {
    expect(sum(delaysWith(() => 0))).toBeGreaterThanOrEqual(DAY_MS);
    expect(sum(delaysWith(() => 0.5))).toBe(143_555_000);
    expect(sum(delaysWith(() => 0.999999))).toBeLessThan(2 * DAY_MS);
  });

  it('jitters each delay by at most 20% either way', () => {
    expect(WEBHOOK_RETRY_JITTER).toBe(0.2);
    expect(nextWebhookDelayMs(1, () => 0)).toBe(4000);
    expect(nextWebhookDelayMs(1, () => 0.5)).toBe(5000);
    expect(nextWebhookDelayMs(1, () => 0.999999)).toBe(6000);
    expect(nextWebhookDelayMs(7, () => 0.25)).toBe(3_240_000);
    for (let attempt = 1; attempt < WEBHOOK_MAX_ATTEMPTS; attempt += 1) {
      const base = WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1] * 1000;
      for (let i = 0; i < 50; i += 1) {
        const delay = nextWebhookDelayMs(attempt) as number;
        expect(delay).toBeGreaterThanOrEqual(base * 0.8);
        expect(delay).toBeLessThanOrEqual(base * 1.2);
      }
    }
  });

  it('gives up after the last attempt', () => {
    expect(nextWebhookDelayMs(WEBHOOK_MAX_ATTEMPTS - 1)).not.toBeNull();
    expect(nextWebhookDelayMs(WEBHOOK_MAX_ATTEMPTS)).toBeNull();
    expect(nextWebhookDelayMs(100)).toBeNull();
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses attempt %p', (attempt) => {
    expect(() => nextWebhookDelayMs(attempt)).toThrow(RangeError);
  });
});
