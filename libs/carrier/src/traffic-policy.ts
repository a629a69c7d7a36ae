import { laneIndex, TRAFFIC_LANES, type TrafficLane } from './submit-sm';

/** A group commit of submit responses: records in one flush, flushes at once. */
export interface RecordCommit {
  maxBatch: number;
  flushes: number;
}

/** The numbers of the traffic policy; TrafficPolicy says what they are for. */
export interface TrafficRules {
  /** How long after an OTP's or single send's part was submitted they count as flowing. */
  othersFlowMs: number;
  campaigns: {
    /** The share of a bind's window campaign parts may fill while the others flow. */
    windowShare: number;
    /** Campaign parts a second a dispatcher submits while the others flow, and in a slow start; 0: no pace. */
    pacePerSecond: number;
    /** How often the pace releases the parts waiting, each tick's share at once. */
    paceTickMs: number;
    /** Messages of a campaign batch made at a time while the pace holds. */
    makingSlice: number;
  };
  unrecorded: {
    /** Parts sent whose submit_sm_resp is not recorded yet, at most: what a crash can make the next run send again. */
    max: number;
    /** The share of them campaign parts may not take. */
    reservedShare: number;
  };
  recording: {
    /** OTPs' own group commit of submit responses. */
    urgent: RecordCommit;
    /** The one of single sends and campaigns: single sends' records go in the next flush first. */
    others: RecordCommit;
  };
  /**
   * Jobs of each lane's queue (otp.dispatch, sms.dispatch, campaign.dispatch) one dispatcher runs at
   * once. An OTP job carries the OTPs of one gateway group commit and mostly waits (database,
   * carrier, recording): many at once keep them flowing while each takes long under a campaign's
   * load, and a job that waits costs nothing but its promise. A campaign batch is up to 10,000
   * messages: a few at once keep every bind busy, more would only queue on the database pool.
   */
  jobsAtOnce: Readonly<Record<TrafficLane, number>>;
}

/** Rules to change from the defaults; a group given in part keeps the defaults of the rest. */
export type TrafficSettings = { [K in keyof TrafficRules]?: TrafficRules[K] extends number ? number : Partial<TrafficRules[K]> };

/** What one lane gets under the policy. */
export interface LaneTerms {
  lane: TrafficLane;
  /** 0 is the most urgent: a free window slot, permit or place in a flush goes to the lowest rank first. */
  rank: number;
  /** Whether it gives way while the other lanes flow (campaigns do). */
  yields: boolean;
  /** The share of a bind's window it may fill while the others flow. */
  windowShare: number;
  /** Its parts a second while the others flow; Infinity: not paced. */
  pacePerSecond: number;
  /** Parts in doubt (sent, response not recorded) it may hold at once. */
  unrecordedPermits: number;
  /** The group commit that records its submit responses, and its rank in that commit's queue. */
  recording: { commit: 'urgent' | 'others'; rank: number };
  /** Jobs of its queue one dispatcher runs at once. */
  jobsAtOnce: number;
}

/** The lane that gives way: the least urgent (campaigns). */
export const YIELDING_LANE: TrafficLane = TRAFFIC_LANES[TRAFFIC_LANES.length - 1];

const DEFAULT_RULES: TrafficRules = Object.freeze({
  othersFlowMs: 1_000,
  campaigns: Object.freeze({ windowShare: 0.25, pacePerSecond: 300, paceTickMs: 50, makingSlice: 100 }),
  unrecorded: Object.freeze({ max: 1_000, reservedShare: 0.1 }),
  recording: Object.freeze({ urgent: Object.freeze({ maxBatch: 100, flushes: 1 }), others: Object.freeze({ maxBatch: 500, flushes: 2 }) }),
  jobsAtOnce: Object.freeze({ urgent: 512, normal: 32, bulk: 4 }),
});

/**
 * OTPs and single sends before campaigns: the sms-dispatcher's one traffic policy, built once from
 * its configuration (`CAMPAIGN_PACE_WHILE_OTHERS_FLOW`, `SUBMIT_MAX_UNRECORDED`) and handed to every
 * part that applies a rule of it. Parts travel in three lanes, OTPs (`urgent`), single sends
 * (`normal`) and campaigns (`bulk`); wherever they wait together the most urgent lane goes first,
 * so a campaign's thousands of waiting parts hold up an OTP by one part's turn at most. That alone
 * is not enough: a campaign at full speed takes the CPU, database and carrier time that OTPs need
 * on their way, so campaigns also give way while the other lanes flow (a part of theirs was
 * submitted within `othersFlowMs`), and speed up again once they stop:
 *
 * - **The bind's window** (`SubmitWindow`): campaign parts fill at most `campaigns.windowShare` of
 *   it (at least one slot), the rest stays free for the others.
 * - **The pace** (`YieldingPace`): a dispatcher submits at most `campaigns.pacePerSecond` campaign
 *   parts a second, released every `campaigns.paceTickMs` a tick's share at once (so they share
 *   their records' transactions). A campaign starting after a quiet `othersFlowMs` keeps to it for
 *   that long too (a slow start), and while it holds, campaign batches are made one at a time,
 *   once less than a second's parts wait, `campaigns.makingSlice` messages at a time.
 * - **Parts in doubt** (`LanePermits`): at most `unrecorded.max` parts are sent without their
 *   response recorded (what a crash can make the next run send again); campaigns may not take the
 *   last `unrecorded.reservedShare` of them, so an OTP never waits for a campaign's next flush of
 *   records to free one.
 * - **Recording** (`GroupCommit`): OTPs' submit responses have a group commit of their own
 *   (`recording.urgent`), so an OTP never waits for, nor rides in, a campaign's flush of hundreds;
 *   single sends' go before campaigns' in the other (`recording.others`).
 * - **Jobs** (the queue workers): each lane has its queue, worked `jobsAtOnce[lane]` jobs at a time
 *   per dispatcher: many OTP jobs (each mostly waits), few campaign batches (a few keep every bind
 *   busy; more would take the database connections the others need).
 *
 * A pure value: frozen, its rules checked when it is made.
 */
export class TrafficPolicy implements TrafficRules {
  static readonly DEFAULTS: Readonly<TrafficRules> = DEFAULT_RULES;

  readonly othersFlowMs: number;
  readonly campaigns: Readonly<TrafficRules['campaigns']>;
  readonly unrecorded: Readonly<TrafficRules['unrecorded']>;
  readonly recording: Readonly<TrafficRules['recording']>;
  readonly jobsAtOnce: Readonly<Record<TrafficLane, number>>;
  /** Permits campaign parts may not take. */
  readonly unrecordedReserved: number;
  private readonly lanes: Readonly<Record<TrafficLane, LaneTerms>>;

  constructor(settings: TrafficSettings = {}) {
    const rules: TrafficRules = {
      othersFlowMs: settings.othersFlowMs ?? DEFAULT_RULES.othersFlowMs,
      campaigns: { ...DEFAULT_RULES.campaigns, ...settings.campaigns },
      unrecorded: { ...DEFAULT_RULES.unrecorded, ...settings.unrecorded },
      recording: { ...DEFAULT_RULES.recording, ...settings.recording },
      jobsAtOnce: { ...DEFAULT_RULES.jobsAtOnce, ...settings.jobsAtOnce },
    };
    check(rules);
    this.othersFlowMs = rules.othersFlowMs;
    this.campaigns = Object.freeze(rules.campaigns);
    this.unrecorded = Object.freeze(rules.unrecorded);
    this.recording = Object.freeze({ urgent: Object.freeze({ ...rules.recording.urgent }), others: Object.freeze({ ...rules.recording.others }) });
    this.jobsAtOnce = Object.freeze(rules.jobsAtOnce);
    this.unrecordedReserved = Math.floor(rules.unrecorded.max * rules.unrecorded.reservedShare);
    this.lanes = Object.freeze(Object.fromEntries(TRAFFIC_LANES.map((lane) => [lane, Object.freeze(this.termsOf(lane))])) as Record<TrafficLane, LaneTerms>);
    Object.freeze(this);
  }

  /** What the lane gets. */
  lane(lane: TrafficLane): LaneTerms {
    return this.lanes[lane];
  }

  /** Campaign parts a bind's window of windowSize may hold while the others flow: their share, at least one. */
  campaignWindowLimit(windowSize: number): number {
    return Math.max(1, Math.floor(windowSize * this.campaigns.windowShare));
  }

  private termsOf(lane: TrafficLane): LaneTerms {
    const yields = lane === YIELDING_LANE;
    const paced = yields && this.campaigns.pacePerSecond > 0;
    return {
      lane,
      rank: laneIndex(lane),
      yields,
      windowShare: yields ? this.campaigns.windowShare : 1,
      pacePerSecond: paced ? this.campaigns.pacePerSecond : Number.POSITIVE_INFINITY,
      unrecordedPermits: yields ? this.unrecorded.max - this.unrecordedReserved : this.unrecorded.max,
      recording: lane === 'urgent' ? { commit: 'urgent', rank: 0 } : { commit: 'others', rank: laneIndex(lane) - laneIndex('normal') },
      jobsAtOnce: this.jobsAtOnce[lane],
    };
  }
}

function check(rules: TrafficRules): void {
  const { othersFlowMs, campaigns, unrecorded, recording, jobsAtOnce } = rules;
  const wholeAtLeast = (name: string, value: number, least: number) => {
    if (!(Number.isInteger(value) && value >= least)) throw new RangeError(`${name} must be a whole number of at least ${least}`);
  };
  wholeAtLeast('othersFlowMs', othersFlowMs, 1);
  if (!(campaigns.windowShare > 0 && campaigns.windowShare <= 1)) throw new RangeError('campaigns.windowShare must be above 0 and at most 1');
  wholeAtLeast('campaigns.pacePerSecond', campaigns.pacePerSecond, 0);
  wholeAtLeast('campaigns.paceTickMs', campaigns.paceTickMs, 1);
  wholeAtLeast('campaigns.makingSlice', campaigns.makingSlice, 1);
  wholeAtLeast('unrecorded.max', unrecorded.max, 1);
  if (!(unrecorded.reservedShare >= 0 && unrecorded.reservedShare < 1)) throw new RangeError('unrecorded.reservedShare must be at least 0 and below 1');
  for (const commit of ['urgent', 'others'] as const) {
    wholeAtLeast(`recording.${commit}.maxBatch`, recording[commit].maxBatch, 1);
    wholeAtLeast(`recording.${commit}.flushes`, recording[commit].flushes, 1);
  }
  for (const lane of TRAFFIC_LANES) wholeAtLeast(`jobsAtOnce.${lane}`, jobsAtOnce[lane], 1);
}
