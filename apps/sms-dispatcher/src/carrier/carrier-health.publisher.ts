import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  CARRIER_HEALTH_EVERY_MS,
  createRedisConnection,
  publishCarrierHealth,
  QUEUE_RUNTIME_OPTIONS,
  withdrawCarrierHealth,
  type QueueRuntimeOptions,
  type RedisConnection,
} from '@mp/queue-runtime';
import { hostname } from 'node:os';
import { CarrierPool } from './carrier-pool.service';

/**
 * Publishes what this process counted of each carrier (submits, throttling, errors, receipts,
 * receipt latency over the health window) and whether it judges it degraded, every
 * CARRIER_HEALTH_EVERY_MS, for `admin carrier:list` and the operators' API
 * (docs/decisions/0060-carrier-health-in-redis.md). Each report lives a short TTL.
 */
@Injectable()
export class CarrierHealthPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CarrierHealthPublisher');
  private readonly dispatcher = `${hostname()}:${process.pid}`;
  private redis?: RedisConnection;
  private timer?: NodeJS.Timeout;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly carrier: CarrierPool,
    @Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions,
  ) {}

  onApplicationBootstrap(): void {
    this.redis = createRedisConnection(this.options.redisUrl, 'producer', `${this.options.appName}-carrier-health`);
    this.redis.once('ready', () => void this.publish());
    this.timer = setInterval(() => void this.publish(), CARRIER_HEALTH_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    if (this.redis) await withdrawCarrierHealth(this.redis, this.options.prefix, this.dispatcher).catch(() => undefined);
    this.redis?.disconnect();
  }

  private async publish(): Promise<void> {
    if (this.stopped || !this.redis || this.redis.status !== 'ready') return;
    try {
      await publishCarrierHealth(this.redis, this.options.prefix, this.dispatcher, this.carrier.healthSnapshot());
      this.failing = false;
    } catch (error) {
      // Once per outage, as the bind states.
      if (!this.failing) this.logger.warn({ msg: 'carrier health not published', err: error });
      this.failing = true;
    }
  }
}
