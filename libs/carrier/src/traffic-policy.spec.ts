import { TrafficPolicy, YIELDING_LANE } from './traffic-policy';

describe('TrafficPolicy', () => {
  it('holds the numbers the dispatcher has always run with, by default', () => {
    const policy = new TrafficPolicy();
    expect({ ...policy.campaigns }).toEqual({ windowShare: 0.25, pacePerSecond: 300, paceTickMs: 50, makingSlice: 100 });
    expect(policy.othersFlowMs).toBe(1_000);
    expect({ ...policy.unrecorded }).toEqual({ max: 1_000, reservedShare: 0.1 });
    expect(policy.unrecordedReserved).toBe(100);
    expect(policy.recording).toEqual({ urgent: { maxBatch: 100, flushes: 1 }, others: { maxBatch: 500, flushes: 2 } });
    expect({ ...policy.jobsAtOnce }).toEqual({ urgent: 512, normal: 32, bulk: 4 });
    expect(policy.campaignWindowLimit(50)).toBe(12);
  });

  it('gives OTPs and single sends everything, and campaigns what is left while the others flow', () => {
    const policy = new TrafficPolicy();
    expect(policy.lane('urgent')).toEqual({
      lane: 'urgent',
      rank: 0,
      yields: false,
      windowShare: 1,
      pacePerSecond: Number.POSITIVE_INFINITY,
      unrecordedPermits: 1_000,
      recording: { commit: 'urgent', rank: 0 },
      jobsAtOnce: 512,
    });
    expect(policy.lane('normal')).toEqual({
      lane: 'normal',
      rank: 1,
      yields: false,
      windowShare: 1,
      pacePerSecond: Number.POSITIVE_INFINITY,
      unrecordedPermits: 1_000,
      recording: { commit: 'others', rank: 0 },
      jobsAtOnce: 32,
    });
    expect(policy.lane('bulk')).toEqual({
      lane: 'bulk',
      rank: 2,
      yields: true,
      windowShare: 0.25,
      pacePerSecond: 300,
      unrecordedPermits: 900,
      recording: { commit: 'others', rank: 1 },
      jobsAtOnce: 4,
    });
    expect(YIELDING_LANE).toBe('bulk');
  });

  it('changes only the rules it is given, and what each lane gets with them', () => {
    const policy = new TrafficPolicy({ campaigns: { pacePerSecond: 0, windowShare: 0.5 }, unrecorded: { max: 55 }, jobsAtOnce: { urgent: 64 } });
    expect({ ...policy.campaigns }).toEqual({ windowShare: 0.5, pacePerSecond: 0, paceTickMs: 50, makingSlice: 100 });
    expect(policy.lane('bulk')).toMatchObject({ windowShare: 0.5, pacePerSecond: Number.POSITIVE_INFINITY, unrecordedPermits: 50, jobsAtOnce: 4 });
    expect(policy.lane('urgent')).toMatchObject({ unrecordedPermits: 55, jobsAtOnce: 64 });
    expect(policy.campaignWindowLimit(8)).toBe(4);
  });

  it('leaves campaigns at least one slot of any window, and every permit of a single one', () => {
    const policy = new TrafficPolicy({ unrecorded: { max: 1 } });
    expect(policy.campaignWindowLimit(1)).toBe(1);
    expect(policy.campaignWindowLimit(3)).toBe(1);
    expect(policy.lane('bulk').unrecordedPermits).toBe(1);
  });

  it('is frozen', () => {
    const policy = new TrafficPolicy();
    expect(Object.isFrozen(policy)).toBe(true);
    expect(Object.isFrozen(policy.campaigns)).toBe(true);
    expect(Object.isFrozen(policy.lane('bulk'))).toBe(true);
    expect(Object.isFrozen(TrafficPolicy.DEFAULTS.recording.urgent)).toBe(true);
  });

  it.each([
    [{ othersFlowMs: 0 }, /othersFlowMs/],
    [{ campaigns: { windowShare: 0 } }, /windowShare/],
    [{ campaigns: { windowShare: 1.5 } }, /windowShare/],
    [{ campaigns: { pacePerSecond: -1 } }, /pacePerSecond/],
    [{ campaigns: { paceTickMs: 0 } }, /paceTickMs/],
    [{ campaigns: { makingSlice: 0.5 } }, /makingSlice/],
    [{ unrecorded: { max: 0 } }, /unrecorded.max/],
    [{ unrecorded: { reservedShare: 1 } }, /reservedShare/],
    [{ recording: { urgent: { maxBatch: 0, flushes: 1 } } }, /recording.urgent.maxBatch/],
    [{ recording: { others: { maxBatch: 500, flushes: 0 } } }, /recording.others.flushes/],
    [{ jobsAtOnce: { bulk: 0 } }, /jobsAtOnce.bulk/],
  ])('refuses %j', (settings, message) => {
    expect(() => new TrafficPolicy(settings)).toThrow(RangeError);
    expect(() => new TrafficPolicy(settings)).toThrow(message);
  });
});
