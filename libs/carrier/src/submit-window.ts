import { LaneQueue } from '@mp/batching';
import type { PDU } from 'smpp';
import { CommandStatus, describeStatus, isPermanentStatus, NO_RESPONSE } from './command-status';
import type { SubmitSmParameters } from './outgoing-pdus';
import { laneIndex, TRAFFIC_LANES, type SubmitOutcome, type TrafficLane } from './submit-sm';
import { burstFor, TokenBucket } from './token-bucket';
import { YIELDING_LANE, type TrafficPolicy } from './traffic-policy';

/** Sends one submit_sm; false when it could not be written. */
export type SubmitSender<P = SubmitSmParameters> = (parameters: P, onResponse: (response: PDU) => void) => boolean;

export interface SubmitWindowOptions {
  windowSize: number;
  maxPerSecond: number;
  responseTimeoutMs: number;
  /** host:port, for the reasons of failures. */
  target: string;
  /** How long the others count as flowing, and the share of the window campaign parts may fill meanwhile. */
  traffic: TrafficPolicy;
}

const BULK_LANE = laneIndex(YIELDING_LANE);

interface Waiting<P> {
  parameters: P;
  lane: number;
  resolve: (outcome: SubmitOutcome) => void;
  /** Fails the submit when no bind comes in time. */
  unboundTimer?: NodeJS.Timeout;
}

interface InFlight {
  lane: number;
  resolve: (outcome: SubmitOutcome) => void;
  timer: NodeJS.Timeout;
}

export const noResponse = (reason: string): SubmitOutcome => ({ ok: false, permanent: false, commandStatus: NO_RESPONSE, reason });

/**
 * The submit_sm of one bind: sent most urgent lane first (an OTP never waits behind a campaign's
 * parts), in order within a lane, at most windowSize waiting for their response, no faster than a
 * token bucket allows. While there is no bind (no sender), submits wait for one for
 * up to responseTimeoutMs.
 *
 * While parts of the other lanes flow (one was submitted within the traffic policy's
 * othersFlowMs), campaign parts may fill only the policy's share of the window (TrafficPolicy).
 */
export class SubmitWindow<P = SubmitSmParameters> {
  private readonly waiting = new LaneQueue<Waiting<P>>(TRAFFIC_LANES.length);
  private readonly inFlight = new Set<InFlight>();
  private readonly bucket: TokenBucket;
  private sender: SubmitSender<P> | null = null;
  private pumpTimer?: NodeJS.Timeout;
  private bulkInFlight = 0;
  private othersActiveUntil = 0;
  private readonly othersFlowMs: number;
  private readonly bulkLimitWhileOthersActive: number;

  constructor(private readonly options: SubmitWindowOptions) {
    if (!(options.windowSize >= 1)) throw new RangeError('windowSize must be at least 1');
    this.bucket = new TokenBucket(options.maxPerSecond, burstFor(options.maxPerSecond));
    this.othersFlowMs = options.traffic.othersFlowMs;
    this.bulkLimitWhileOthersActive = options.traffic.campaignWindowLimit(options.windowSize);
  }

  /** submit_sm sent and not answered yet. */
  get outstanding(): number {
    return this.inFlight.size;
  }

  submit(parameters: P, lane: TrafficLane = 'normal'): Promise<SubmitOutcome> {
    const rank = laneIndex(lane);
    if (rank !== BULK_LANE) this.othersActiveUntil = Date.now() + this.othersFlowMs;
    return new Promise((resolve) => {
      const waiting: Waiting<P> = { parameters, lane: rank, resolve };
      this.waiting.push(waiting, rank);
      if (!this.sender) this.armUnboundTimer(waiting);
      this.pump();
    });
  }

  /** Bound: sending starts. */
  resume(sender: SubmitSender<P>): void {
    this.sender = sender;
    for (const waiting of this.waiting.toArray()) clearTimeout(waiting.unboundTimer);
    this.pump();
  }

  /** The bind is gone: what was sent fails (not permanently); what waits, waits for the next bind. */
  suspend(reason: string): void {
    this.sender = null;
    for (const entry of [...this.inFlight]) this.settle(entry, noResponse(reason));
    for (const waiting of this.waiting.toArray()) this.armUnboundTimer(waiting);
  }

  /** Fails every submit not sent yet, and sends no more. */
  drop(reason: string): void {
    clearTimeout(this.pumpTimer);
    this.pumpTimer = undefined;
    for (const waiting of this.waiting.drain()) {
      clearTimeout(waiting.unboundTimer);
      waiting.resolve(noResponse(reason));
    }
  }

  private pump(): void {
    while (this.sender && this.waiting.length > 0 && this.inFlight.size < this.options.windowSize) {
      // A capped campaign part waits for one of its own to be answered (settle pumps again).
      if ((this.waiting.peek() as Waiting<P>).lane === BULK_LANE && this.bulkCapped()) return;
      const wait = this.bucket.take();
      if (wait > 0) {
        this.pumpTimer ??= setTimeout(() => {
          this.pumpTimer = undefined;
          this.pump();
        }, wait);
        return;
      }
      this.send(this.sender, this.waiting.shift() as Waiting<P>);
    }
  }

  private send(sender: SubmitSender<P>, waiting: Waiting<P>): void {
    clearTimeout(waiting.unboundTimer);
    const { responseTimeoutMs } = this.options;
    const entry: InFlight = {
      lane: waiting.lane,
      resolve: waiting.resolve,
      timer: setTimeout(() => this.settle(entry, noResponse(`no submit_sm_resp within ${responseTimeoutMs} ms`)), responseTimeoutMs),
    };
    this.inFlight.add(entry);
    if (entry.lane === BULK_LANE) this.bulkInFlight += 1;
    let sent = false;
    try {
      sent = sender(waiting.parameters, (response) => this.settle(entry, outcomeOf(response)));
    } catch (error) {
      this.settle(entry, noResponse(`the submit_sm could not be encoded: ${String(error)}`));
      return;
    }
    if (!sent) this.settle(entry, noResponse('the connection was not writable'));
  }

  /** Resolves an in-flight submit once (a response after its timeout is ignored) and frees its slot. */
  private settle(entry: InFlight, outcome: SubmitOutcome): void {
    if (!this.inFlight.delete(entry)) return;
    if (entry.lane === BULK_LANE) this.bulkInFlight -= 1;
    clearTimeout(entry.timer);
    entry.resolve(outcome);
    this.pump();
  }

  private bulkCapped(): boolean {
    return this.bulkInFlight >= this.bulkLimitWhileOthersActive && Date.now() < this.othersActiveUntil;
  }

  private armUnboundTimer(waiting: Waiting<P>): void {
    clearTimeout(waiting.unboundTimer);
    waiting.unboundTimer = setTimeout(() => {
      if (!this.waiting.remove(waiting)) return;
      waiting.resolve(noResponse(`not bound to ${this.options.target} within ${this.options.responseTimeoutMs} ms`));
    }, this.options.responseTimeoutMs);
  }
}

function outcomeOf(response: PDU): SubmitOutcome {
  const status = response.command_status;
  if (status === CommandStatus.ESME_ROK) return { ok: true, carrierMessageId: String(response['message_id'] ?? '') };
  return { ok: false, permanent: isPermanentStatus(status), commandStatus: status, reason: `the SMSC answered ${describeStatus(status)}` };
}
