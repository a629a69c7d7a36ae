import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { LedgerRepository } from '@mp/billing';
import { PlatformMetrics } from '@mp/metrics';
import type { Gauge } from 'prom-client';

export const LEDGER_CHECK_EVERY_MS = 60_000;

/**
 * Every minute, counts the companies whose balance differs from their ledger
 * (mp_ledger_balance_mismatches): balances move only together with an entry, so anything but 0
 * means money moved without a record. A failed check leaves the last count and is logged.
 */
@Injectable()
export class LedgerCheck implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LedgerCheck');
  private readonly mismatches: Gauge;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly ledger: LedgerRepository,
    metrics: PlatformMetrics,
  ) {
    this.mismatches = metrics.gauge('mp_ledger_balance_mismatches');
  }

  onApplicationBootstrap(): void {
    this.running = this.check();
    this.timer = setInterval(() => (this.running ??= this.check()), LEDGER_CHECK_EVERY_MS);
  }

  /** Before the pool closes (docs/architecture.md, Shutdown): the check under way finishes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  async check(): Promise<void> {
    try {
      const mismatches = await this.ledger.countBalanceMismatches();
      this.mismatches.set(mismatches);
      if (mismatches > 0) this.logger.error({ msg: 'balances differ from their ledger', companies: mismatches });
    } catch (error) {
      this.logger.warn({ msg: 'could not check the balances against the ledger; trying again next minute', err: error });
    } finally {
      this.running = undefined;
    }
  }
}
