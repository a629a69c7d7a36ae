import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { allDone, GroupCommit } from '@mp/batching';
import { DispatchStore } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';
import { DataSource } from 'typeorm';

export interface SubmittedPart {
  messageId: string;
  partIndex: number;
  carrierMessageId: string;
}

/**
 * Records submit_sm responses. Responses that come back together are recorded in one
 * transaction (a group commit), and the events they cause are enqueued together.
 */
@Injectable()
export class SubmitRecorder implements OnApplicationShutdown {
  private readonly batcher: GroupCommit<SubmittedPart, void>;

  constructor(dataSource: DataSource, relay: OutboxRelay) {
    const store = new DispatchStore(dataSource);
    this.batcher = new GroupCommit(
      async (parts) => {
        const { outbox } = await store.recordSubmittedMany(parts);
        if (outbox.jobs.length > 0) await relay.relay(outbox.ids, outbox.jobs);
        return allDone(parts);
      },
      // Two flushes at once: while one commits, the next batch is already being written. They
      // cannot deadlock: every dispatch transaction takes its locks in one order (dispatch-locks.ts).
      { maxBatch: 500, concurrency: 2 },
    );
  }

  /** Resolves once the part is recorded as submitted. */
  submitted(part: SubmittedPart): Promise<void> {
    return this.batcher.submit(part);
  }

  onApplicationShutdown(): Promise<void> {
    return this.batcher.idle();
  }
}
