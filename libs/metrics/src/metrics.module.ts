import { DynamicModule, Inject, Injectable, Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { QueueName } from '@mp/queue-contracts';
import { JOB_METER, OutboxRepository, QueueProducer } from '@mp/queue-runtime';
import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { HttpMetrics } from './http-metrics';
import { PrometheusJobMeter } from './job-meter';
import { METRICS_ROUTE, MetricsController } from './metrics.controller';
import { PlatformMetrics } from './platform-metrics';
import { refreshQueueDepths } from './queue-depths';

export interface MetricsOptions {
  /** The value of every series' `app` label. */
  app: string;
  /** Queues whose depths this app reports (mp_queue_jobs, mp_queue_backlog): a worker its own, the gateway all. */
  queues?: readonly QueueName[];
  /** Report mp_outbox_pending (one app is enough: the outbox is one table). */
  outbox?: boolean;
}

const METRICS_OPTIONS = Symbol('METRICS_OPTIONS');

/** Installs what counts by itself: the HTTP hook and the scrape-time readings of queues and outbox. */
@Injectable()
class MetricsInstaller implements OnModuleInit {
  constructor(
    @Inject(METRICS_OPTIONS) private readonly options: MetricsOptions,
    private readonly metrics: PlatformMetrics,
    private readonly adapterHost: HttpAdapterHost,
    private readonly producer: QueueProducer,
    private readonly outbox: OutboxRepository,
  ) {}

  onModuleInit(): void {
    // Fastify gives a route its hooks when the server gets ready, so routes declared before count too.
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    new HttpMetrics(this.metrics, new Set([METRICS_ROUTE])).install(fastify);
    refreshQueueDepths(this.metrics, this.options.queues ?? [], this.producer);
    if (this.options.outbox) {
      const pending = this.metrics.gauge('mp_outbox_pending');
      this.metrics.refreshOnScrape('outbox', async () => pending.set(await this.outbox.countPending()));
    }
  }
}

/**
 * Prometheus metrics for one app (docs/metrics.md): a registry per process, `GET /metrics`
 * (public, like /health), HTTP request metrics, job metrics for QueueWorkerHost, and the queue
 * depths and outbox read at scrape time. Global: any module injects PlatformMetrics to count.
 * Needs QueueModule and DatabaseModule.
 */
@Module({})
export class MetricsModule {
  static forRoot(options: MetricsOptions): DynamicModule {
    return {
      module: MetricsModule,
      global: true,
      controllers: [MetricsController],
      providers: [
        { provide: METRICS_OPTIONS, useValue: options },
        { provide: PlatformMetrics, useFactory: () => new PlatformMetrics(options.app) },
        { provide: Registry, useFactory: (metrics: PlatformMetrics) => metrics.registry, inject: [PlatformMetrics] },
        { provide: JOB_METER, useFactory: (metrics: PlatformMetrics) => new PrometheusJobMeter(metrics), inject: [PlatformMetrics] },
        MetricsInstaller,
      ],
      exports: [PlatformMetrics, Registry, JOB_METER],
    };
  }
}
