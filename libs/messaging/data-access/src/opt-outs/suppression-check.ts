import { GroupCommit } from '@mp/batching';
import type { OptOutStore } from './opt-out-store';

interface Check {
  companyId: string;
  sender: string;
  phones: readonly string[];
}

/**
 * The send paths' question "which of these numbers opted out of this sender?", asked by sends that
 * arrive together in ONE indexed query (docs/decisions/0051-suppression-check.md): at thousands of
 * sends a second a query each would double the database's work; a cache would need invalidating
 * on every instance when a STOP arrives. It is asked before the acceptance's group commit, so a
 * STOP that arrives while a send is being accepted may miss it: a race carriers accept.
 */
export class SuppressionCheck {
  private readonly batcher: GroupCommit<Check, Set<string>>;

  constructor(store: OptOutStore, options: { maxBatch?: number; concurrency?: number } = {}) {
    this.batcher = new GroupCommit(async (checks) => (await store.suppressedForMany(checks)).map((value) => ({ ok: true as const, value })), {
      maxBatch: options.maxBatch ?? 256,
      concurrency: options.concurrency ?? 2,
    });
  }

  /** The phones among `phones` that opted out of `sender` or of every number of the company. */
  suppressed(companyId: string, sender: string, phones: readonly string[]): Promise<Set<string>> {
    if (phones.length === 0) return Promise.resolve(new Set());
    return this.batcher.submit({ companyId, sender, phones });
  }

  idle(): Promise<void> {
    return this.batcher.idle();
  }
}
