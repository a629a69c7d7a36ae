import { Inject, Injectable } from '@nestjs/common';
import { QueueName, type JobDataOf, type QueueProbeResult } from '@mp/queue-contracts';
import { JobHandler } from './job-handler.decorator';
import type { JobContext } from './handler-registry';
import { QUEUE_RUNTIME_OPTIONS, type QueueRuntimeOptions } from './queue-options';

type ProbeData = JobDataOf<typeof QueueName.SmsDispatch, 'queue.probe'>;

/** Answers `queue.probe` on every queue this app consumes, saying which process took it. */
@Injectable()
export class QueueProbeHandler {
  constructor(@Inject(QUEUE_RUNTIME_OPTIONS) private readonly options: QueueRuntimeOptions) {}

  async answer(data: ProbeData, context: JobContext): Promise<QueueProbeResult> {
    return { app: this.options.appName, pid: process.pid, queue: context.queue, probeId: data.probeId };
  }
}

/** One subclass per queue, so each (queue, job) pair has exactly one decorated handler. */
function probeHandlerFor(queue: QueueName) {
  @Injectable()
  class ProbeHandlerForQueue extends QueueProbeHandler {
    @JobHandler(queue, 'queue.probe')
    override async answer(data: ProbeData, context: JobContext): Promise<QueueProbeResult> {
      return super.answer(data, context);
    }
  }
  Object.defineProperty(ProbeHandlerForQueue, 'name', { value: `QueueProbeHandler[${queue}]` });
  return ProbeHandlerForQueue;
}

export function probeHandlersFor(queues: readonly QueueName[]) {
  return queues.map(probeHandlerFor);
}
