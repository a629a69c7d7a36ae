import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { runWithLogContext } from '@mp/observability';
import { QUEUE_POLICIES, type QueueName } from '@mp/queue-contracts';
import { Job, UnrecoverableError, Worker } from 'bullmq';
import { HandlerRegistry, type JobHandlerFn } from './handler-registry';
import { JOB_HANDLER, type JobHandlerMetadata } from './job-handler.decorator';
import { runInJobSpan } from './job-tracing';
import { JOB_METER, type JobMeter } from './job-meter';
import { QUEUE_CONCURRENCY, QUEUE_RUNTIME_OPTIONS, type QueueConcurrency, type QueueRuntimeOptions } from './queue-options';
import { createRedisConnection, type RedisConnection } from './redis-connection';

/** The job label of a job no handler knows (its name came from Redis, so it is not a label). */
const UNKNOWN_JOB = 'unknown';

/**
 * Finds the @JobHandler methods of the app, refuses to start unless every job of every consumed
 * queue has exactly one, then runs a BullMQ worker per queue. Handlers that throw are retried
 * with backoff; an UnrecoverableError fails the job at once; the final failure is logged.
 */
@Injectable()
export class QueueWorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('QueueWorkerHost');
  private readonly registry = new HandlerRegistry();
  private readonly workers: Worker[] = [];
  private connection: RedisConnection | undefined;
  private stopping: Promise<void> | undefined;
  /** Jobs running now, by `queue:name`. */
  private readonly running = new Map<string, number>();

  constructor(
    @Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    @Optional() @Inject(QUEUE_CONCURRENCY) private readonly concurrency?: QueueConcurrency,
    @Optional() @Inject(JOB_METER) private readonly meter?: JobMeter,
  ) {}

  onApplicationBootstrap(): void {
    this.registerHandlers();
    this.registry.assertComplete(this.options.consume);
    if (this.options.consume.length === 0) return;
    this.connection = createRedisConnection(this.options.redisUrl, 'worker', this.options.appName);
    for (const queue of this.options.consume) this.workers.push(this.startWorker(queue, this.connection));
    this.logger.log({ msg: 'consuming queues', queues: this.options.consume });
  }

  /**
   * Takes no more jobs and resolves once the running ones have finished (their locks renewed
   * meanwhile, so none is left stalled). The first step of a shutdown: every flush and close
   * comes after it. Idempotent.
   */
  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.logger.log({ msg: 'stopping queue workers: finishing the running jobs', queues: this.options.consume });
      await Promise.all(this.workers.map((worker) => worker.close()));
    })();
    return this.stopping;
  }

  /** Nest runs every module's beforeApplicationShutdown before any onApplicationShutdown (where connections close). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
    this.connection?.disconnect();
  }

  /** Jobs of the queue this process runs at once: its app's own number (QUEUE_CONCURRENCY), else the queue's policy's. */
  concurrencyOf(queue: QueueName): number {
    return this.concurrency?.[queue] ?? QUEUE_POLICIES[queue].concurrency;
  }

  /** Worker connections are up: used by readiness. */
  isRunning(): boolean {
    return this.workers.every((worker) => worker.isRunning());
  }

  private registerHandlers(): void {
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || !wrapper.isDependencyTreeStatic()) continue;
      const prototype = Object.getPrototypeOf(instance) as object;
      for (const method of this.scanner.getAllMethodNames(prototype)) {
        const meta = this.reflector.get<JobHandlerMetadata | undefined>(JOB_HANDLER, instance[method] as () => unknown);
        if (!meta) continue;
        const handler = (instance[method] as JobHandlerFn).bind(instance);
        this.registry.register(meta.queue, meta.name, handler, `${instance.constructor.name}.${method}`);
      }
    }
  }

  private startWorker(queue: QueueName, connection: RedisConnection): Worker {
    const worker = new Worker(queue, (job: Job) => this.tracked(queue, job), {
      connection,
      prefix: this.options.prefix,
      concurrency: this.concurrencyOf(queue),
    });
    worker.on('failed', (job, error) => {
      const attempts = job?.opts.attempts ?? 1;
      const final = !job || job.attemptsMade >= attempts || error instanceof UnrecoverableError;
      const fields = { queue, jobId: job?.id, job: job?.name, attempt: job?.attemptsMade, err: error };
      this.meter?.failed(queue, job && this.registry.lookup(queue, job.name) ? job.name : UNKNOWN_JOB, final);
      if (final) this.logger.error({ msg: 'job failed for good', ...fields });
      else this.logger.warn({ msg: 'job failed, will retry', ...fields });
    });
    worker.on('error', (error) => this.logger.error({ msg: 'worker error', queue, err: error }));
    return worker;
  }

  /** Jobs running now, by `queue:name`: what a shutdown past its deadline was still waiting for. */
  runningJobs(): Record<string, number> {
    return Object.fromEntries(this.running);
  }

  private async tracked(queue: QueueName, job: Job): Promise<unknown> {
    const key = `${queue}:${job.name}`;
    this.running.set(key, (this.running.get(key) ?? 0) + 1);
    try {
      return await this.process(queue, job);
    } finally {
      const left = (this.running.get(key) ?? 1) - 1;
      if (left > 0) this.running.set(key, left);
      else this.running.delete(key);
    }
  }

  private async process(queue: QueueName, job: Job): Promise<unknown> {
    const handler = this.registry.lookup(queue, job.name);
    if (!handler) throw new UnrecoverableError(`no handler for ${queue} job "${job.name}"`);
    const jobId = job.id ?? 'unknown';
    const attempt = job.attemptsMade + 1;
    const run = () =>
      runInJobSpan({ queue, jobId, name: job.name, attempt, data: job.data }, () =>
        runWithLogContext({ jobId, queue }, () => handler(job.data, { jobId, queue, attempt })),
      );
    const meter = this.meter;
    if (!meter) return run();
    const started = performance.now();
    try {
      const result = await run();
      meter.ran(queue, job.name, 'completed', (performance.now() - started) / 1000);
      return result;
    } catch (error) {
      meter.ran(queue, job.name, 'failed', (performance.now() - started) / 1000);
      throw error;
    }
  }
}
