import { Injectable } from '@nestjs/common';
import { PriceRepository } from '@mp/accounts';
import type { PriceRule } from '@mp/billing-domain';
import { LoadingCache } from '../common/loading-cache';

const TTL_MS = 5_000;

/** The price table, read at most every few seconds: it changes rarely and is read on every send. */
@Injectable()
export class PriceBook {
  private readonly cache = new LoadingCache<PriceRule[]>({ ttlMs: TTL_MS });

  constructor(private readonly prices: PriceRepository) {}

  async rules(): Promise<PriceRule[]> {
    return (await this.cache.get('prices', () => this.prices.list())) ?? [];
  }
}
