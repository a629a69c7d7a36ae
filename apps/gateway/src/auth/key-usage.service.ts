import { type BeforeApplicationShutdown, Logger } from '@nestjs/common';
import { ApiKeyRepository } from '@mp/accounts';

/** A key's last use is written at most this often by one gateway (and the statement skips a fresher one). */
export const KEY_USE_INTERVAL_MS = 60_000;
/** Uses noted within this long go in one statement. */
const FLUSH_DELAY_MS = 1_000;

/**
 * Keeps `api_keys.last_used_at` to the minute without slowing the public API: a request only
 * notes its key in memory (a map lookup); a key not written within the last minute is written,
 * after the answer, with the other keys noted within the same second, in one UPDATE. A failed
 * write is logged and forgotten: the next use a minute on writes it again.
 */
export class KeyUsage implements BeforeApplicationShutdown {
  private readonly logger = new Logger('KeyUsage');
  private readonly writtenAt = new Map<string, number>();
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The public API accepted this key now. */
  used(keyId: string): void {
    const now = this.clock();
    const written = this.writtenAt.get(keyId);
    if (written !== undefined && now - written < KEY_USE_INTERVAL_MS) return;
    this.writtenAt.set(keyId, now);
    this.pending.add(keyId);
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes the keys noted so far. */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const ids = [...this.pending];
    this.pending.clear();
    if (ids.length === 0) return;
    try {
      await this.keys.markUsed(ids);
    } catch (error) {
      for (const id of ids) this.writtenAt.delete(id);
      this.logger.warn({ msg: 'could not record when API keys were last used', keys: ids.length, err: error });
    }
    if (this.writtenAt.size > 100_000) this.forgetOld();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.flush();
  }

  /** Keys not used for a minute need no memory: their next use writes again anyway. */
  private forgetOld(): void {
    const now = this.clock();
    for (const [id, at] of this.writtenAt) if (now - at >= KEY_USE_INTERVAL_MS) this.writtenAt.delete(id);
  }
}
