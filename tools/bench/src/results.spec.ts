import { cpuLine, perItem, perItemLine, type CpuFigures } from './phase-observer';
import { cpuShares, processSwitches, processTicks, type CpuSample } from './process-cpu';
import { fileStamp } from './results';
import type { ArrivalFigures } from './simulator-arrivals';
import { smsVerdicts, type SmsBenchFigures } from './sms-results';

const figures = (overrides: Partial<SmsBenchFigures> = {}): SmsBenchFigures => ({
  durationS: 30.01,
  connections: 64,
  requests: 150_000,
  accepted: 150_000,
  acceptedPerSecond: 5_000,
  latencyMs: { p50: 10, p99: 25, p999: 40, max: 90, mean: 11.2 },
  non2xx: 0,
  statusCodes: { '200': 150_000 },
  errors: 0,
  timeouts: 0,
  submit: { samples: 150_000, p50Ms: 12.5, p99Ms: 55, maxMs: 80, notSubmittedAtEnd: 0, drainedAfterS: 0.5 },
  atSimulator: { messages: 150_000, arrived: 150_000, p50Ms: 9.5, p99Ms: 45, maxMs: 70 },
  ...overrides,
});

describe('bench results', () => {
  it('meets the throughput target only with both the rate and the p99', () => {
    expect(smsVerdicts(figures())).toEqual({ throughput: true, submit: true });
    expect(smsVerdicts(figures({ acceptedPerSecond: 3_999 })).throughput).toBe(false);
    expect(smsVerdicts(figures({ latencyMs: { p50: 10, p99: 31, p999: 40, max: 90, mean: 11 } })).throughput).toBe(false);
  });

  it('judges the submit target at the simulator, where the issue measures it, not at the later record', () => {
    const atSimulator = figures().atSimulator as ArrivalFigures;
    expect(smsVerdicts(figures({ atSimulator: { ...atSimulator, p99Ms: 50 } })).submit).toBe(true);
    expect(smsVerdicts(figures({ atSimulator: { ...atSimulator, p99Ms: 51 }, submit: { ...figures().submit, p99Ms: 40 } })).submit).toBe(false);
  });

  it('does not meet the submit target when a message never reached the simulator, or it could not be read', () => {
    const atSimulator = figures().atSimulator as ArrivalFigures;
    expect(smsVerdicts(figures({ atSimulator: { ...atSimulator, arrived: atSimulator.messages - 3 } })).submit).toBe(false);
    expect(smsVerdicts(figures({ atSimulator: { ...atSimulator, messages: 0, arrived: 0, p50Ms: null, p99Ms: null, maxMs: null } })).submit).toBe(false);
    expect(smsVerdicts(figures({ atSimulator: null })).submit).toBe(false);
  });

  it('names files by the ISO date without colons', () => {
    expect(fileStamp(new Date('2026-11-22T02:35:02.489Z'))).toBe('2026-11-22T02-35-02Z');
  });
  it('reads CPU ticks from /proc and shares them per group', () => {
    expect(processTicks(process.pid)).toEqual(expect.any(Number));
    expect(processTicks(2 ** 30)).toBeUndefined();
    const before: CpuSample = {
      at: 0,
      ticks: new Map([
        [1, 100],
        [2, 50],
      ]),
      machine: { busy: 0, total: 0 },
    };
    const after: CpuSample = {
      at: 2_000,
      ticks: new Map([
        [1, 250],
        [2, 60],
        [3, 40],
      ]),
      machine: { busy: 0, total: 0 },
    };
    expect(cpuShares(before, after, { a: [1], b: [2, 3], gone: [4] })).toEqual([
      { name: 'a', pids: [1], percentOfOneCore: 75 },
      { name: 'b', pids: [2, 3], percentOfOneCore: 25 },
      { name: 'gone', pids: [4], percentOfOneCore: 0 },
    ]);
  });

  it('reads the context switches of every thread of a process, and counts each group’s over the window', () => {
    expect(processSwitches(process.pid)).toEqual({ voluntary: expect.any(Number), involuntary: expect.any(Number) });
    expect(processSwitches(2 ** 30)).toBeUndefined();
    const before: CpuSample = {
      at: 0,
      ticks: new Map([[1, 0]]),
      switches: new Map([[1, { voluntary: 100, involuntary: 10 }]]),
      machine: { busy: 0, total: 0 },
    };
    const after: CpuSample = {
      at: 1_000,
      ticks: new Map([
        [1, 10],
        [2, 5],
      ]),
      switches: new Map([
        [1, { voluntary: 400, involuntary: 30 }],
        [2, { voluntary: 50, involuntary: 5 }],
      ]),
      machine: { busy: 0, total: 0 },
    };
    expect(cpuShares(before, after, { a: [1, 2] })).toEqual([
      { name: 'a', pids: [1, 2], percentOfOneCore: 15, contextSwitches: { voluntary: 350, involuntary: 25 } },
    ]);
  });

  it('divides each group’s CPU time and context switches by the items of the window', () => {
    const cpu: CpuFigures = {
      windowS: 10,
      busy: 80,
      shares: [
        { name: 'gateway', pids: [1], percentOfOneCore: 50, contextSwitches: { voluntary: 3_000, involuntary: 1_000 } },
        { name: 'autocannon (bench)', pids: [2], percentOfOneCore: 10 },
        { name: 'everything else', pids: [], percentOfOneCore: 20 },
      ],
    };
    const costs = perItem(cpu, 5_000);
    expect(costs).toEqual([
      { name: 'gateway', cpuMs: 1, contextSwitches: 0.8 },
      { name: 'autocannon (bench)', cpuMs: 0.2, contextSwitches: null },
    ]);
    expect(perItemLine(costs, 'accepted request')).toBe('per accepted request, CPU ms: gw 1.00 / ac 0.20; context switches: gw 0.8 / ac —');
    expect(perItem(cpu, 0)).toEqual([]);
    expect(cpuLine(cpu)).toBe('gw 50 / disp 0 / sim 0 / pg 0 / ac 10 / other 20; machine 80%');
  });
});
