const SECOND = 1;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * Delays before each retry of a webhook delivery, in seconds: after the first failed attempt wait
 * 5 s, then 30 s, 2 min, 5 min, 15 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h and 12 h. That is 12
 * retries, 13 attempts in all, spanning 39 h 52 min 35 s. The last 12 h is there so that even with
 * every delay jittered 20 % short the span stays above 24 hours (31.9 h).
 */
export const WEBHOOK_RETRY_DELAYS_SECONDS: readonly number[] = Object.freeze([
  5 * SECOND,
  30 * SECOND,
  2 * MINUTE,
  5 * MINUTE,
  15 * MINUTE,
  30 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  12 * HOUR,
  12 * HOUR,
]);

/** The first attempt and one per retry delay; after this many failures a delivery is dead-lettered. */
export const WEBHOOK_MAX_ATTEMPTS = WEBHOOK_RETRY_DELAYS_SECONDS.length + 1;

/** Each delay is moved by up to this fraction either way, so retries after an outage spread out. */
export const WEBHOOK_RETRY_JITTER = 0.2;

/**
 * The delay before the next attempt, given the 1-based number of the attempt that just failed, or
 * null when that was the last one (the delivery is dead-lettered). `random` returns [0, 1).
 */
export function nextWebhookDelayMs(attempt: number, random: () => number = Math.random): number | null {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be an integer from 1, not ${attempt}`);
  const seconds = WEBHOOK_RETRY_DELAYS_SECONDS[attempt - 1];
  if (seconds === undefined) return null;
  const factor = 1 + (2 * random() - 1) * WEBHOOK_RETRY_JITTER;
  return Math.round(seconds * 1000 * factor);
}
