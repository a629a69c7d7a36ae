import type { SpanContext } from '@opentelemetry/api';

/**
 * The span contexts of the last `capacity` keys, oldest forgotten first: where later work that
 * arrives by another path (a delivery receipt, by its carrier id) finds the span it continues.
 * Kept in this process's memory only, and only while tracing.
 */
export class RecentSpans {
  private readonly byKey = new Map<string, SpanContext>();

  constructor(private readonly capacity = 100_000) {}

  remember(key: string, span: SpanContext | undefined): void {
    if (!span) return;
    this.byKey.delete(key);
    this.byKey.set(key, span);
    if (this.byKey.size > this.capacity) this.byKey.delete(this.byKey.keys().next().value as string);
  }

  /** The span remembered for the key (kept: an SMSC may report a part more than once). */
  find(key: string): SpanContext | undefined {
    return this.byKey.get(key);
  }

  get size(): number {
    return this.byKey.size;
  }
}
