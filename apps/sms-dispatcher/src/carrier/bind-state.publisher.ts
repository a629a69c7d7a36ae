import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  BIND_REPORT_EVERY_MS,
  createRedisConnection,
  type RedisConnection,
  publishBindStates,
  QUEUE_RUNTIME_OPTIONS,
  withdrawBindStates,
  type QueueRuntimeOptions,
} from '@mp/queue-runtime';
import { hostname } from 'node:os';
import { CarrierPool } from './carrier-pool.service';

/**
 * Publishes this process's SMSC binds to Redis for the operators' overview (the gateway reads
 * them): at each change of a bind and every BIND_REPORT_EVERY_MS, each report living a short TTL
 * so a dead dispatcher's binds drop out (docs/decisions/0038-smsc-bind-state-in-redis.md).
 */
@Injectable()
export class BindStatePublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('BindStatePublisher');
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
    this.redis = createRedisConnection(this.options.redisUrl, 'producer', `${this.options.appName}-binds`);
    this.redis.once('ready', () => void this.publish());
    this.carrier.onBindStateChange(() => void this.publish());
    this.timer = setInterval(() => void this.publish(), BIND_REPORT_EVERY_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await withdrawBindStates(this.redis as RedisConnection, this.options.prefix, this.dispatcher).catch(() => undefined);
    this.redis?.disconnect();
  }

  private async publish(): Promise<void> {
    if (this.stopped || !this.redis || this.redis.status !== 'ready') return;
    const binds = this.carrier.bindStates().map((bind) => ({ ...bind, since: bind.since.toISOString() }));
    try {
      await publishBindStates(this.redis, this.options.prefix, this.dispatcher, binds);
      this.failing = false;
    } catch (error) {
      // Once per outage: the overview is not worth a log line a bind change.
      if (!this.failing) this.logger.warn({ msg: 'SMSC bind states not published', err: error });
      this.failing = true;
    }
  }
}
