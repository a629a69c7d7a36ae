import { SetMetadata } from '@nestjs/common';
import type { JobNameOf, QueueName } from '@mp/queue-contracts';

export const JOB_HANDLER = Symbol('job-handler');

export interface JobHandlerMetadata {
  queue: QueueName;
  name: string;
}

/** Marks a provider method as the handler of one job of one queue. */
export function JobHandler<Q extends QueueName>(queue: Q, name: JobNameOf<Q>): MethodDecorator {
  return SetMetadata(JOB_HANDLER, { queue, name } satisfies JobHandlerMetadata);
}
