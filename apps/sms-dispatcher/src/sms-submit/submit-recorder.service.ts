import { BeforeApplicationShutdown, Injectable } from '@nestjs/common';
import { allDone, GroupCommit } from '@mp/batching';
import { TrafficPolicy, type TrafficLane } from '@mp/carrier';
import { DispatchStore, type SubmittedPart } from '@mp/messaging';
import { OutboxRelay } from '@mp/queue-runtime';

/**
 * Records submit_sm responses. Responses that come back together are recorded in one
 * transaction (a group commit), and the events they cause are enqueued together. As the traffic
 * policy says (`recording`): OTPs have a group commit of their own, so an OTP never waits for a
 * campaign's flush of hundreds of parts nor rides in the next; in the other, a single send's
 * response goes in the next flush before a campaign's.
 */
@Injectable()
export class SubmitRecorder implements BeforeApplicationShutdown {
  private readonly urgent: GroupCommit<SubmittedPart, void>;
  private readonly others: GroupCommit<SubmittedPart, void>;
  /** Records not yet committed, by carrier id (see whenRecorded). */
  private readonly recording = new Map<string, Promise<void>>();

  constructor(
    store: DispatchStore,
    relay: OutboxRelay,
    private readonly traffic: TrafficPolicy,
  ) {
    const record = async (parts: readonly SubmittedPart[]) => {
      const { outbox } = await store.recordSubmittedMany(parts);
      if (outbox.jobs.length > 0) await relay.relay(outbox.ids, outbox.jobs);
      return allDone(parts);
    };
    const { urgent, others } = traffic.recording;
    this.urgent = new GroupCommit(record, { maxBatch: urgent.maxBatch, concurrency: urgent.flushes });
    // Several flushes at once: while one commits, the next batch is already being written. No two
    // flushes can deadlock: every dispatch transaction takes its locks in one order
    // (dispatch-locks.ts).
    this.others = new GroupCommit(record, { maxBatch: others.maxBatch, concurrency: others.flushes, lanes: 2 });
  }

  /** Resolves once the part is recorded as submitted. */
  submitted(part: SubmittedPart, lane: TrafficLane = 'normal'): Promise<void> {
    const { commit, rank } = this.traffic.lane(lane).recording;
    const recorded = commit === 'urgent' ? this.urgent.submit(part, rank) : this.others.submit(part, rank);
    const { carrierMessageId } = part;
    this.recording.set(carrierMessageId, recorded);
    const forget = () => {
      if (this.recording.get(carrierMessageId) === recorded) this.recording.delete(carrierMessageId);
    };
    recorded.then(forget, forget);
    return recorded;
  }

  /**
   * Settles once this process's record of the carrier id, if one is under way, has committed or
   * failed. A receipt waits for it instead of for the record's database lock: holding its other
   * carrier ids' locks meanwhile, it would hold up the next records behind it.
   */
  async whenRecorded(carrierMessageId: string): Promise<void> {
    await this.recording.get(carrierMessageId)?.catch(() => undefined);
  }

  /** At shutdown, after the queue workers have stopped: every response they had is committed. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.urgent.idle(), this.others.idle()]);
  }
}
