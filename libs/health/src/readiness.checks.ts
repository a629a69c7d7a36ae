import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { CommonEnv } from '@mp/config';
import { createRedisConnection, QueueWorkerHost, type RedisConnection } from '@mp/queue-runtime';
import { HealthIndicatorService, type HealthIndicatorFunction } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

const TIMEOUT_MS = 2_000;

/** The checks behind /health/ready: the app is not shutting down; PostgreSQL, Redis, and its queue workers answer. */
@Injectable()
export class ReadinessChecks implements OnApplicationShutdown {
  private readonly redis: RedisConnection;
  private shuttingDown = false;

  constructor(
    private readonly indicators: HealthIndicatorService,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(QueueWorkerHost) private readonly workers: QueueWorkerHost,
    config: CommonEnv,
  ) {
    this.redis = createRedisConnection(config.REDIS_URL, 'probe', 'health', { lazyConnect: true });
    this.redis.on('error', () => undefined); // reported by the check, not as an unhandled event
  }

  /**
   * Readiness turns false for good: the first step of a shutdown, so that a load balancer stops
   * sending requests before the server stops taking them.
   */
  stopAccepting(): void {
    this.shuttingDown = true;
  }

  all(): HealthIndicatorFunction[] {
    return [
      () => {
        const lifecycle = this.indicators.check('lifecycle');
        return this.shuttingDown ? lifecycle.down({ message: 'shutting down' }) : lifecycle.up();
      },
      () =>
        this.indicators
          .check('postgres')
          .attempt(async () => {
            await this.dataSource.query('SELECT 1');
          })
          .withTimeout(TIMEOUT_MS),
      () =>
        this.indicators
          .check('redis')
          .attempt(async () => {
            if (this.redis.status === 'wait') await this.redis.connect();
            await this.redis.ping();
          })
          .withTimeout(TIMEOUT_MS),
      () => {
        const queues = this.indicators.check('queues');
        return this.workers.isRunning() ? queues.up() : queues.down({ message: 'queue workers are not running' });
      },
    ];
  }

  onApplicationShutdown(): void {
    this.redis.disconnect();
  }
}
