/**
 * Probes until `done` holds or the time is up, then answers the last value probed: the test's own
 * assertion on it then says what was wrong. For states other processes reach in their own time.
 */
export async function eventually<T>(probe: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
