import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import {
  BIND_REPORT_EVERY_MS,
  CARRIER_HEALTH_EVERY_MS,
  createRedisConnection,
  publishBindStates,
  publishCarrierHealth,
  QUEUE_RUNTIME_OPTIONS,
  withdrawBindStates,
  withdrawCarrierHealth,
  type QueueRuntimeOptions,
  type RedisConnection,
} from '@mp/queue-runtime';
import { hostname } from 'node:os';
import { CarrierPool } from './carrier-pool.service';

/** One report this process keeps in Redis: how to write it, how to remove it, and what to log when it can't. */
interface StatusReport {
  name: string;
  publish(redis: RedisConnection, dispatcher: string): Promise<void>;
  withdraw(redis: RedisConnection, dispatcher: string): Promise<void>;
  failing: boolean;
}

/**
 * Publishes this process's view of its carriers to Redis, over one connection, for the operators'
 * overview, `admin carrier:list` and the operators' API: its SMSC binds at each change and every
 * BIND_REPORT_EVERY_MS (docs/decisions/0038-smsc-bind-state-in-redis.md), and what it counted of
 * each carrier's health every CARRIER_HEALTH_EVERY_MS (docs/decisions/0060-carrier-health-in-redis.md).
 * Each report lives a short TTL, so a dead dispatcher's drop out; both are withdrawn at shutdown.
 */
@Injectable()
export class CarrierStatusPublisher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('CarrierStatusPublisher');
  private readonly dispatcher = `${hostname()}:${process.pid}`;
  private readonly binds: StatusReport;
  private readonly health: StatusReport;
  private redis?: RedisConnection;
  private readonly timers: NodeJS.Timeout[] = [];
  private stopped = false;

  constructor(
    carrier: CarrierPool,
    @Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions,
  ) {
    const { prefix } = options;
    this.binds = {
      name: 'SMSC bind states',
      publish: (redis, dispatcher) =>
        publishBindStates(
          redis,
          prefix,
          dispatcher,
          carrier.bindStates().map((bind) => ({ ...bind, since: bind.since.toISOString() })),
        ),
      withdraw: (redis, dispatcher) => withdrawBindStates(redis, prefix, dispatcher),
      failing: false,
    };
    this.health = {
      name: 'carrier health',
      publish: (redis, dispatcher) => publishCarrierHealth(redis, prefix, dispatcher, carrier.healthSnapshot()),
      withdraw: (redis, dispatcher) => withdrawCarrierHealth(redis, prefix, dispatcher),
      failing: false,
    };
    carrier.onBindStateChange(() => void this.publish(this.binds));
  }

  onApplicationBootstrap(): void {
    this.redis = createRedisConnection(this.options.redisUrl, 'producer', `${this.options.appName}-carrier-status`);
    this.redis.once('ready', () => {
      void this.publish(this.binds);
      void this.publish(this.health);
    });
    this.every(BIND_REPORT_EVERY_MS, this.binds);
    this.every(CARRIER_HEALTH_EVERY_MS, this.health);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    const redis = this.redis;
    if (redis) await Promise.all([this.binds, this.health].map((report) => report.withdraw(redis, this.dispatcher).catch(() => undefined)));
    redis?.disconnect();
  }

  private every(ms: number, report: StatusReport): void {
    const timer = setInterval(() => void this.publish(report), ms);
    timer.unref();
    this.timers.push(timer);
  }

  private async publish(report: StatusReport): Promise<void> {
    if (this.stopped || !this.redis || this.redis.status !== 'ready') return;
    try {
      await report.publish(this.redis, this.dispatcher);
      report.failing = false;
    } catch (error) {
      // Once per outage: the overview is not worth a log line a bind change.
      if (!report.failing) this.logger.warn({ msg: `${report.name} not published`, err: error });
      report.failing = true;
    }
  }
}
