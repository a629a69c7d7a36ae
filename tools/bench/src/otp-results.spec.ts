import { non2xxCell, otpReadmeRow, otpVerdicts, type OtpBenchFigures } from './otp-results';
import type { Machine } from './results';

const figures = (overrides: Partial<OtpBenchFigures> = {}): OtpBenchFigures => ({
  durationS: 15.02,
  connections: 64,
  overallRate: 500,
  requests: 7_500,
  accepted: 7_500,
  acceptedPerSecond: 499,
  latencyMs: { p50: 5, p99: 14, p999: 20, max: 31, mean: 5.6 },
  non2xx: 0,
  statusCodes: { '200': 7_500 },
  errors: 0,
  timeouts: 0,
  submit: { samples: 7_500, p50Ms: 12.5, p99Ms: 45, maxMs: 80, notSubmittedAtEnd: 0, drainedAfterS: 0.5 },
  duringCampaign: null,
  ...overrides,
});
const host: Machine = { cpu: 'Test CPU', cores: 2, memoryGiB: 4, kernel: '6.1', node: 'v20', postgres: 'PostgreSQL 15', redis: '7' };
const latency = (p99: number) => ({ p50: 5, p99, p999: 20, max: 31, mean: 5.6 });

describe('otp bench results', () => {
  it('meets the API target with p99 ≤ 15 ms, the rate held and every answer 2xx', () => {
    expect(otpVerdicts(figures())).toEqual({ api: true, submit: true, duringCampaign: null });
    expect(otpVerdicts(figures({ latencyMs: latency(15) })).api).toBe(true);
    expect(otpVerdicts(figures({ latencyMs: latency(16) })).api).toBe(false);
    expect(otpVerdicts(figures({ acceptedPerSecond: 470 })).api).toBe(false);
    expect(otpVerdicts(figures({ non2xx: 3, statusCodes: { '200': 7_497, '429': 3 } })).api).toBe(false);
    expect(otpVerdicts(figures({ errors: 1 })).api).toBe(false);
  });

  it('does not judge the API target at a rate below 500/s', () => {
    expect(otpVerdicts(figures({ overallRate: 100, acceptedPerSecond: 100 })).api).toBeNull();
  });

  it('meets the carrier target only with every part submitted within 50 ms at p99', () => {
    const submit = figures().submit;
    expect(otpVerdicts(figures({ submit: { ...submit, p99Ms: 51 } })).submit).toBe(false);
    expect(otpVerdicts(figures({ submit: { ...submit, notSubmittedAtEnd: 2 } })).submit).toBe(false);
    expect(otpVerdicts(figures({ submit: { ...submit, p99Ms: null } })).submit).toBe(false);
  });

  it('shows the non-2xx answers by status', () => {
    expect(non2xxCell(figures())).toBe('0');
    expect(non2xxCell({ non2xx: 12, statusCodes: { '200': 100, '429': 10, '503': 2 } })).toBe('12 (429: 10, 503: 2)');
  });

  it('writes one README row with the rate, the verdicts and the campaign case not measured', () => {
    const row = otpReadmeRow({
      started: new Date('2026-11-22T05:00:01.250Z'),
      revision: { commit: 'abc1234', dirty: false },
      machine: host,
      figures: figures({ latencyMs: latency(22), non2xx: 4, statusCodes: { '200': 7_496, '429': 4 } }),
      cpu: 'gw 40',
      file: 'otp-x.json',
    });
    expect(row).toBe(
      '| 2026-11-22T05:00:01Z | abc1234 | 2 × Test CPU | 15.0 | 64 | 500 | 499 | 5 | 22 | 20 | 4 (429: 4) | 0 | 13 | 45 | **not met** | met | not measured (bulk not built yet) | gw 40 | [otp-x.json](otp-x.json) |\n',
    );
  });
});
