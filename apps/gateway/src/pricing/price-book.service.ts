import { Injectable } from '@nestjs/common';
import type { PriceRule } from '@mp/billing-domain';
import { PriceRepository } from '@mp/persistence';

const TTL_MS = 5_000;

/** The price table, read at most every few seconds: it changes rarely and is read on every send. */
@Injectable()
export class PriceBook {
  private cached: { rules: PriceRule[]; at: number } | undefined;

  constructor(private readonly prices: PriceRepository) {}

  async rules(): Promise<PriceRule[]> {
    if (!this.cached || Date.now() - this.cached.at > TTL_MS) {
      this.cached = { rules: await this.prices.list(), at: Date.now() };
    }
    return this.cached.rules;
  }
}
