import { QUEUE_JOB_NAMES, type QueueName } from '@mp/queue-contracts';

export type JobHandlerFn = (data: unknown, context: JobContext) => Promise<unknown>;

export interface JobContext {
  jobId: string;
  queue: QueueName;
  attempt: number;
}

export class HandlerRegistrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandlerRegistrationError';
  }
}

/**
 * The handlers of one worker process, by queue and job name. Registering two handlers for one
 * job fails at once; `assertComplete` fails start-up when a consumed job has none.
 */
export class HandlerRegistry {
  private readonly handlers = new Map<QueueName, Map<string, { handler: JobHandlerFn; owner: string }>>();

  register(queue: QueueName, name: string, handler: JobHandlerFn, owner: string): void {
    const known: readonly string[] | undefined = QUEUE_JOB_NAMES[queue];
    if (!known) throw new HandlerRegistrationError(`${owner} handles unknown queue "${queue}"`);
    if (!known.includes(name)) {
      throw new HandlerRegistrationError(`${owner} handles "${name}", which is not a job of ${queue}`);
    }
    const forQueue = this.handlers.get(queue) ?? new Map();
    const existing = forQueue.get(name);
    if (existing) {
      throw new HandlerRegistrationError(`${queue} job "${name}" has two handlers: ${existing.owner} and ${owner}`);
    }
    forQueue.set(name, { handler, owner });
    this.handlers.set(queue, forQueue);
  }

  /** Every job of every consumed queue has a handler, and no queue is handled without being consumed. */
  assertComplete(consumed: readonly QueueName[]): void {
    const problems: string[] = [];
    for (const queue of consumed) {
      const names: readonly string[] = QUEUE_JOB_NAMES[queue];
      for (const name of names) {
        if (!this.handlers.get(queue)?.has(name)) problems.push(`${queue} job "${name}" has no handler`);
      }
    }
    for (const queue of this.handlers.keys()) {
      if (!consumed.includes(queue)) problems.push(`handlers exist for ${queue}, but this app does not consume it`);
    }
    if (problems.length > 0) throw new HandlerRegistrationError(problems.join('; '));
  }

  lookup(queue: QueueName, name: string): JobHandlerFn | undefined {
    return this.handlers.get(queue)?.get(name)?.handler;
  }
}
