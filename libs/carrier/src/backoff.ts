export interface BackoffSettings {
  initialDelayMs: number;
  maxDelayMs: number;
}

/**
 * The wait before reconnect attempt `attempt` (0 = the first): exponential from initialDelayMs,
 * capped at maxDelayMs, with "equal jitter" (half fixed, half random) so that many binds that
 * lost the same SMSC do not come back at the same instant.
 */
export function reconnectDelay(attempt: number, { initialDelayMs, maxDelayMs }: BackoffSettings, random: () => number = Math.random): number {
  const ceiling = Math.min(maxDelayMs, initialDelayMs * 2 ** Math.min(attempt, 30));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}
