/**
 * Wrong codes for one recipient of one application: `failures` of them within `windowMs` block
 * verifying and sending to that recipient for `durationMs` after the last of them.
 *
 * The count lives in the recipient's attempts, not in an OTP, so neither a resend nor a new OTP
 * resets it: otherwise a guesser would ask for a fresh code after every two wrong ones.
 */
export const OTP_BLOCK = { failures: 3, windowMs: 30 * 60_000, durationMs: 30 * 60_000 } as const;

/**
 * The earliest wrong code that can still count toward a block at `now`; callers load the
 * failures from there on. A block ending after `now` started after `now - durationMs`, and the
 * failures that caused it came at most `windowMs` before that.
 */
export function blockLookbackStart(now: Date): Date {
  return new Date(now.getTime() - OTP_BLOCK.durationMs - OTP_BLOCK.windowMs);
}

/**
 * When the block on a recipient ends, or null if there is none at `now`. `failureTimes` are the
 * times of the wrong codes (attempts refused because of a block are not wrong codes), in any
 * order. A failure causes a block if it and the failures before it within the window, that
 * failure included, number at least `OTP_BLOCK.failures`; a window counts a failure exactly
 * `windowMs` earlier.
 */
export function blockUntil(failureTimes: readonly Date[], now: Date): Date | null {
  const times = failureTimes.map((time) => time.getTime()).sort((a, b) => a - b);
  let until: number | null = null;
  let first = 0;
  for (let last = 0; last < times.length; last++) {
    while (times[first] < times[last] - OTP_BLOCK.windowMs) first++;
    const end = times[last] + OTP_BLOCK.durationMs;
    if (last - first + 1 >= OTP_BLOCK.failures && end > now.getTime()) until = end;
  }
  return until === null ? null : new Date(until);
}

/** Whole seconds until `until`, rounded up and at least 1: the Retry-After a client waits for. */
export function retryAfterSeconds(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
}
