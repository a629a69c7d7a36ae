/**
 * Work started without waiting for it (enqueueing what a commit wrote), kept so that a shutdown
 * can wait for it. Its failures are the work's own to report; here they are only awaited.
 */
export class InFlight {
  private readonly running = new Set<Promise<unknown>>();

  track(work: Promise<unknown>): void {
    const settled = work.catch(() => undefined).finally(() => this.running.delete(settled));
    this.running.add(settled);
  }

  /** Resolves once everything tracked so far has settled. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.running]);
  }
}
