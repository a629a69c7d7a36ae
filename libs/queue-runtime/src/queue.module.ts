import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { providedWithDataSource } from '@mp/persistence';
import { OutboxRelay } from './outbox-relay';
import { OutboxRepository } from './outbox.repository';
import { QUEUE_RUNTIME_OPTIONS, type QueueRuntimeOptions } from './queue-options';
import { probeHandlersFor } from './queue-probe.handler';
import { QueueProducer } from './queue-producer';
import { QueueWorkerHost } from './queue-worker.host';

/**
 * Queues for one app: a typed producer, workers for the queues it consumes, and the outbox (jobs
 * committed with the rows they act on) with its relay. Needs DatabaseModule.
 */
@Module({})
export class QueueModule {
  static forRoot(options: QueueRuntimeOptions): DynamicModule {
    return {
      module: QueueModule,
      global: true,
      imports: [DiscoveryModule],
      providers: [
        { provide: QUEUE_RUNTIME_OPTIONS, useValue: options },
        QueueProducer,
        QueueWorkerHost,
        providedWithDataSource(OutboxRepository),
        OutboxRelay,
        ...probeHandlersFor(options.consume),
      ],
      exports: [QUEUE_RUNTIME_OPTIONS, QueueProducer, QueueWorkerHost, OutboxRepository, OutboxRelay],
    };
  }
}
