/** Whether GET url answers 200 within timeoutMs. */
export async function isHealthy(url: string, timeoutMs = 1_000): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    await response.body?.cancel();
    return response.status === 200;
  } catch {
    return false;
  }
}

/**
 * Polls url until it answers 200; false when timeoutMs passed or `cancelled()` turned true first
 * (the stack is stopping).
 */
export async function waitForHealth(url: string, timeoutMs: number, cancelled: () => boolean = () => false): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !cancelled()) {
    if (await isHealthy(url)) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}
