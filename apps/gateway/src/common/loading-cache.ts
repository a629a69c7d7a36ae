/**
 * Loads a key's value; undefined when there is none (an unknown key, a wrong secret): not cached.
 * `current` is the value a background reload refreshes (undefined when nothing is cached).
 */
export type Load<V> = (current: V | undefined) => Promise<V | undefined>;

export interface LoadingCacheOptions {
  /** A value is never answered once it is this old. 0 or less caches nothing: every get loads. */
  ttlMs: number;
  /** Bound, so a flood of keys cannot grow the cache without limit; the oldest goes first. */
  maxEntries?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  loadedAt: number;
}

/**
 * Values read on every request and changed rarely (verified credentials, applications, limits,
 * the price table), loaded on demand and kept at most `ttlMs`.
 *
 * A value past half its TTL is still answered, and reloaded in the background, so a key in use
 * never expires under its callers. A plain TTL cache let every request arriving while a popular
 * key was being read again do its own lookup: under load, bursts of identical queries queued
 * behind each other and every request waited for them (docs/decisions/0028-loading-cache.md).
 * Loads of one key are shared: at most one is in
 * flight, and callers asking meanwhile wait for it instead of starting their own.
 *
 * A load that answers undefined removes the key. A background reload that fails keeps the value
 * until its TTL ends; a load a caller waits for rejects every caller waiting for it.
 */
export class LoadingCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private readonly loading = new Map<string, Promise<V | undefined>>();
  private readonly ttlMs: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(options: LoadingCacheOptions) {
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries ?? 10_000;
    this.now = options.now ?? Date.now;
  }

  async get(key: string, load: Load<V>): Promise<V | undefined> {
    if (this.ttlMs <= 0) return load(undefined);
    const entry = this.entries.get(key);
    if (entry) {
      const age = this.now() - entry.loadedAt;
      if (age < this.ttlMs) {
        if (age >= this.ttlMs / 2) this.reload(key, load).catch(() => undefined);
        return entry.value;
      }
      this.entries.delete(key);
    }
    return this.reload(key, load);
  }

  /** The key's load under way, or a new one; what it answers replaces the entry. */
  private reload(key: string, load: Load<V>): Promise<V | undefined> {
    const inFlight = this.loading.get(key);
    if (inFlight) return inFlight;
    const loadedAt = this.now();
    const loaded = load(this.entries.get(key)?.value).then((value) => {
      if (value === undefined) this.entries.delete(key);
      else this.store(key, { value, loadedAt });
      return value;
    });
    this.loading.set(key, loaded);
    const settle = () => {
      if (this.loading.get(key) === loaded) this.loading.delete(key);
    };
    loaded.then(settle, settle);
    return loaded;
  }

  private store(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, entry);
  }
}
