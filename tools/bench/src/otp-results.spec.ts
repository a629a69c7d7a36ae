import {
  aloneReference,
  non2xxCell,
  otpVerdicts,
  ratio,
  type CampaignCaseFigures,
  type CampaignDuringWindow,
  type OtpBenchFigures,
  type WhileDraining,
} from './otp-results';

const load = {
  durationS: 15.02,
  connections: 64,
  requests: 7_500,
  accepted: 7_500,
  acceptedPerSecond: 499,
  latencyMs: { p50: 5, p99: 14, p999: 20, max: 31, mean: 5.6 },
  non2xx: 0,
  statusCodes: { '200': 7_500 },
  errors: 0,
  timeouts: 0,
  submit: { samples: 7_500, p50Ms: 12.5, p99Ms: 45, maxMs: 80, notSubmittedAtEnd: 0, drainedAfterS: 0.5 },
  atSimulator: { messages: 7_500, arrived: 7_500, p50Ms: 10, p99Ms: 40, maxMs: 70 },
};
/** A campaign still draining when the window ended. */
const draining: CampaignDuringWindow = {
  recipients: 100_000,
  acceptMs: 310.2,
  windowStartAfterS: 0,
  windowEndAfterS: 15,
  atWindowStart: { messagesMade: 0, partsSubmitted: 0, messagesFinal: 0 },
  atWindowEnd: { messagesMade: 42_000, partsSubmitted: 41_234, messagesFinal: 30_000 },
  allSubmittedAfterS: 31.5,
};
const during = (overrides: Partial<CampaignCaseFigures> = {}): CampaignCaseFigures => ({ ...load, campaign: draining, whileDraining: null, ...overrides });
/** The campaign all submitted 12.4 s after its answer, 12.2 s into the window. */
const drainedAt12 = { ...draining, allSubmittedAfterS: 12.4, windowStartAfterS: 0.2 };
const part = (overrides: Partial<WhileDraining> = {}): WhileDraining => ({
  spanS: 12.2,
  accepted: 6_100,
  acceptedPerSecond: 500,
  latencyMs: { p50: 6, p99: 15, p999: 25, max: 40 },
  submit: { samples: 6_100, p50Ms: 13, p99Ms: 48, maxMs: 90 },
  ...overrides,
});
const figures = (overrides: Partial<OtpBenchFigures> = {}): OtpBenchFigures => ({
  ...load,
  overallRate: 500,
  duringCampaign: during(),
  aloneAgain: null,
  ...overrides,
});
const latency = (p99: number) => ({ p50: 5, p99, p999: 20, max: 31, mean: 5.6 });

describe('otp bench results', () => {
  it('meets the API target with p99 ≤ 15 ms, the rate held and every answer 2xx', () => {
    expect(otpVerdicts(figures())).toEqual({ api: true, submit: true, duringCampaign: true });
    expect(otpVerdicts(figures({ latencyMs: latency(15) })).api).toBe(true);
    expect(otpVerdicts(figures({ latencyMs: latency(16) })).api).toBe(false);
    expect(otpVerdicts(figures({ acceptedPerSecond: 470 })).api).toBe(false);
    expect(otpVerdicts(figures({ non2xx: 3, statusCodes: { '200': 7_497, '429': 3 } })).api).toBe(false);
    expect(otpVerdicts(figures({ errors: 1 })).api).toBe(false);
  });

  it('does not judge the API target at a rate below 500/s', () => {
    expect(otpVerdicts(figures({ overallRate: 100, acceptedPerSecond: 100 })).api).toBeNull();
  });

  it('meets the carrier target at the simulator: every OTP arrived there within 50 ms of its acceptance at p99', () => {
    const atSimulator = load.atSimulator;
    expect(otpVerdicts(figures({ atSimulator: { ...atSimulator, p99Ms: 50 } })).submit).toBe(true);
    // The record of the response may come later: it is an upper bound, not the target's measure.
    expect(otpVerdicts(figures({ submit: { ...load.submit, p99Ms: 58 } })).submit).toBe(true);
    expect(otpVerdicts(figures({ atSimulator: { ...atSimulator, p99Ms: 51 } })).submit).toBe(false);
    expect(otpVerdicts(figures({ atSimulator: { ...atSimulator, arrived: 7_498 } })).submit).toBe(false);
    expect(otpVerdicts(figures({ atSimulator: { ...atSimulator, p99Ms: null } })).submit).toBe(false);
    expect(otpVerdicts(figures({ atSimulator: null })).submit).toBe(false);
  });

  it('shows the non-2xx answers by status', () => {
    expect(non2xxCell(figures())).toBe('0');
    expect(non2xxCell({ non2xx: 12, statusCodes: { '200': 100, '429': 10, '503': 2 } })).toBe('12 (429: 10, 503: 2)');
  });

  it('meets the campaign target when the API p99 and the submit p99 are each within 110% of alone', () => {
    const alone = { latencyMs: latency(200), submit: { ...load.submit, p99Ms: 100 } };
    const withCampaign = (p99: number, submitP99: number) =>
      otpVerdicts(figures({ ...alone, duringCampaign: during({ latencyMs: latency(p99), submit: { ...load.submit, p99Ms: submitP99 } }) })).duringCampaign;
    expect(withCampaign(220, 110)).toBe(true);
    expect(withCampaign(150, 80)).toBe(true);
    expect(withCampaign(221, 110)).toBe(false);
    expect(withCampaign(220, 111)).toBe(false);
    expect(withCampaign(400, 300)).toBe(false);
  });

  it('judges the campaign case against the mean of the alone windows before and after it', () => {
    const first = { latencyMs: latency(200), submit: { ...load.submit, p99Ms: 100 } };
    const aloneAgain = { ...load, latencyMs: latency(240), submit: { ...load.submit, p99Ms: 120 } };
    const withCampaign = (p99: number, submitP99: number) =>
      otpVerdicts(figures({ ...first, aloneAgain, duringCampaign: during({ latencyMs: latency(p99), submit: { ...load.submit, p99Ms: submitP99 } }) }))
        .duringCampaign;
    // The reference: p99 (200 + 240) / 2 = 220, submit p99 110; 10% more is 242 and 121.
    expect(withCampaign(242, 121)).toBe(true);
    expect(withCampaign(243, 121)).toBe(false);
    expect(withCampaign(242, 122)).toBe(false);
    expect(aloneReference(figures({ ...first, aloneAgain }))).toEqual({ p99Ms: 220, submitP99Ms: 110, aloneAgainRatio: { p99: 1.2, submitP99: 1.2 } });
    expect(aloneReference(figures(first))).toEqual({ p99Ms: 200, submitP99Ms: 100, aloneAgainRatio: null });
  });

  it('does not meet the campaign target when the second alone window lost requests or left parts unsubmitted', () => {
    const again = (overrides: Partial<OtpBenchFigures>) => otpVerdicts(figures({ aloneAgain: { ...load, ...overrides } })).duringCampaign;
    expect(again({})).toBe(true);
    expect(again({ acceptedPerSecond: 470 })).toBe(false);
    expect(again({ errors: 1 })).toBe(false);
    expect(again({ submit: { ...load.submit, notSubmittedAtEnd: 2 } })).toBe(false);
  });

  it('judges the campaign case against alone, not against the API target', () => {
    const slow = { latencyMs: latency(231), submit: { ...load.submit, p99Ms: 144 }, atSimulator: { ...load.atSimulator, p99Ms: 130 } };
    const verdicts = otpVerdicts(figures({ ...slow, duringCampaign: during({ latencyMs: latency(254), submit: { ...load.submit, p99Ms: 158 } }) }));
    expect(verdicts).toEqual({ api: false, submit: false, duringCampaign: true });
  });

  it('does not meet the campaign target when either window lost requests or left parts unsubmitted', () => {
    const campaign = (overrides: Partial<CampaignCaseFigures>) => otpVerdicts(figures({ duringCampaign: during(overrides) })).duringCampaign;
    expect(campaign({ acceptedPerSecond: 470 })).toBe(false);
    expect(campaign({ non2xx: 3, statusCodes: { '200': 7_497, '503': 3 } })).toBe(false);
    expect(campaign({ errors: 1 })).toBe(false);
    expect(campaign({ timeouts: 1 })).toBe(false);
    expect(campaign({ submit: { ...load.submit, notSubmittedAtEnd: 5 } })).toBe(false);
    expect(campaign({ submit: { ...load.submit, p99Ms: null } })).toBe(false);
    expect(otpVerdicts(figures({ acceptedPerSecond: 400 })).duringCampaign).toBe(false);
    expect(otpVerdicts(figures({ submit: { ...load.submit, notSubmittedAtEnd: 1 } })).duringCampaign).toBe(false);
  });

  it('does not judge the campaign case when the campaign was all submitted before the window ended', () => {
    const drainedAt = (allSubmittedAfterS: number | null) =>
      otpVerdicts(figures({ duringCampaign: during({ campaign: { ...draining, allSubmittedAfterS } }) })).duringCampaign;
    expect(drainedAt(14.9)).toBeNull();
    expect(drainedAt(15)).toBeNull();
    expect(drainedAt(15.1)).toBe(true);
    expect(drainedAt(null)).toBe(true);
  });

  it('judges the campaign case over the window until the campaign was all submitted, when that lasted 10 s', () => {
    const judged = (whileDraining: WhileDraining | null) =>
      otpVerdicts(figures({ duringCampaign: during({ campaign: drainedAt12, whileDraining }) })).duringCampaign;
    // alone: p99 14, submit p99 45; the whole second window (p99 14, submit 45) would pass either way.
    expect(judged(part())).toBe(true);
    expect(judged(part({ latencyMs: { p50: 6, p99: 15.5, p999: 25, max: 40 } }))).toBe(false);
    expect(judged(part({ submit: { samples: 6_100, p50Ms: 13, p99Ms: 50, maxMs: 90 } }))).toBe(false);
    expect(judged(part({ acceptedPerSecond: 470 }))).toBe(false);
    expect(judged(part({ spanS: 9.9 }))).toBeNull();
    expect(judged(part({ spanS: 10 }))).toBe(true);
    expect(judged(null)).toBeNull();
  });

  it('judges the whole window, not the part, when the campaign drained through it', () => {
    const slowPart = part({ latencyMs: { p50: 6, p99: 99, p999: 120, max: 140 } });
    expect(otpVerdicts(figures({ duringCampaign: during({ whileDraining: slowPart }) })).duringCampaign).toBe(true);
  });

  it('gives the ratio to alone only when both figures are there', () => {
    expect(ratio(254, 231)).toBe(1.1);
    expect(ratio(300, 100)).toBe(3);
    expect(ratio(null, 100)).toBeNull();
    expect(ratio(100, null)).toBeNull();
    expect(ratio(100, 0)).toBeNull();
  });
});
