import { DynamicModule, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { OutboxRelay } from './outbox-relay';
import { QUEUE_RUNTIME_OPTIONS, type QueueRuntimeOptions } from './queue-options';
import { probeHandlersFor } from './queue-probe.handler';
import { QueueProducer } from './queue-producer';
import { QueueWorkerHost } from './queue-worker.host';

/** Queues for one app: a typed producer, and workers for the queues it consumes. */
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
        OutboxRelay,
        ...probeHandlersFor(options.consume),
      ],
      exports: [QUEUE_RUNTIME_OPTIONS, QueueProducer, QueueWorkerHost, OutboxRelay],
    };
  }
}
