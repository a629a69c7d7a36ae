import { costBetween, costCell, parseProcStat, perMessage, sampleCost, type CostGroups, type CostSample, type ProcStat } from './process-cost';

/** A /proc/<pid>/stat line as Linux writes it (52 fields), with the counters that matter set. */
function statLine(pid: number, command: string, { ppid = 1, utime = 0, stime = 0, cutime = 0, cstime = 0 } = {}): string {
  const fields = ['S', ppid, pid, pid, 0, -1, 4194560, 1000, 0, 0, 0, utime, stime, cutime, cstime, 20, 0, 1, 0, 12345, 1000000, 100];
  return `${pid} (${command}) ${[...fields, ...Array(30).fill(0)].join(' ')}\n`;
}

const stat = (pid: number, ppid: number, utime: number, stime = 0, cutime = 0, cstime = 0): ProcStat => ({ pid, ppid, utime, stime, cutime, cstime });
const sample = (at: number, stats: ProcStat[]): CostSample => ({ at, stats: new Map(stats.map((s) => [s.pid, s])) });

describe('process cost', () => {
  it('reads the parent and the own and reaped CPU ticks of a /proc/<pid>/stat line, whatever the command is called', () => {
    expect(parseProcStat(statLine(4242, 'postgres: 15/main: walwriter', { ppid: 2261, utime: 120, stime: 30, cutime: 7, cstime: 2 }))).toEqual({
      pid: 4242,
      ppid: 2261,
      utime: 120,
      stime: 30,
      cutime: 7,
      cstime: 2,
    });
    expect(parseProcStat(statLine(7, 'odd) (name', { ppid: 3, utime: 5 }))).toMatchObject({ pid: 7, ppid: 3, utime: 5 });
    expect(parseProcStat('')).toBeUndefined();
    expect(parseProcStat('12 (cut short) S 1 2')).toBeUndefined();
  });

  it('samples the processes it is given from /proc', () => {
    const taken = sampleCost({ apps: { self: [process.pid, 2 ** 30] }, servers: {} });
    expect(taken.stats.get(process.pid)).toMatchObject({ pid: process.pid, ppid: process.ppid });
    expect(taken.stats.has(2 ** 30)).toBe(false);
  });

  it('counts an app by its own time, from zero when it started in the window, and leaves out one that ended', () => {
    const groups: CostGroups = { apps: { gateway: [10, 11], 'sms-dispatcher': [20] }, servers: {} };
    // The dev-stack's reaped time (cutime) holds its children's: an app's own time only.
    const before = sample(0, [stat(10, 1, 100, 50, 999), stat(20, 1, 30)]);
    const after = sample(30_000, [stat(10, 1, 400, 80, 999), stat(11, 1, 40, 10)]);
    expect(costBetween(before, after, groups, 100)).toEqual({ gateway: 3_800, 'sms-dispatcher': 0 });
  });

  it('counts a server with its children, and those it reaped during the window', () => {
    const groups: CostGroups = { apps: {}, servers: { postgres: { root: 1000 } } };
    const before = sample(0, [stat(1000, 1, 10, 5, 200, 100), stat(1001, 1000, 50), stat(1002, 1000, 70, 30)]);
    // 1002 ended during the window after 20 more ticks (its 90 + 30 reaped); another child started and
    // ended inside it (50 reaped); 1003 started.
    const after = sample(10_000, [stat(1000, 1, 12, 5, 340, 130), stat(1001, 1000, 90), stat(1003, 1000, 25, 5)]);
    expect(costBetween(before, after, groups, 100)).toEqual({ postgres: (2 + 40 + 20 + 50 + 30) * 10 });
  });

  it('leaves out the sessions excluded that it can see: alive at the end, started before or during the window', () => {
    const groups: CostGroups = { apps: {}, servers: { postgres: { root: 1000, exclude: [1001, 1003, 1004, 1004] } } };
    const before = sample(0, [stat(1000, 1, 0), stat(1001, 1000, 50), stat(1002, 1000, 10), stat(1004, 1000, 5)]);
    // 1004 ended in the window: its last ticks are unknown, so its time stays in (60 reaped).
    const after = sample(10_000, [stat(1000, 1, 0, 0, 60), stat(1001, 1000, 80), stat(1002, 1000, 30), stat(1003, 1000, 15)]);
    expect(costBetween(before, after, groups, 100)).toEqual({ postgres: (30 + 20 + 15 + 55 - 30 - 15) * 10 });
  });

  it('has no figure for a server that is not on this machine or went away', () => {
    const groups: CostGroups = { apps: {}, servers: { postgres: { root: null }, redis: { root: 5 } } };
    const before = sample(0, [stat(5, 1, 10)]);
    expect(costBetween(before, sample(1_000, []), groups, 100)).toEqual({ postgres: null, redis: null });
    expect(costBetween(before, sample(1_000, [stat(5, 1, 12)]), groups, 100)).toEqual({ postgres: null, redis: 20 });
  });

  it('divides each group’s CPU ms by the messages, and adds up the groups it has', () => {
    const cost = perMessage({ gateway: 4_500, postgres: 6_000.4, redis: null }, 15_000, 31.5004);
    expect(cost).toEqual({ messages: 15_000, windowS: 31.5, processes: { gateway: 0.3, postgres: 0.4, redis: null }, totalMs: 0.7 });
    expect(perMessage({ gateway: 10 }, 3, 1)?.processes['gateway']).toBe(3.333);
    expect(perMessage({ gateway: 10 }, 0, 1)).toBeNull();
  });

  it('shows the sum first, then each process by its short name, along the path of a message and the servers last', () => {
    const cost = perMessage({ redis: null, 'dev-stack': 15, postgres: 6_000, 'sms-dispatcher': 3_000, gateway: 4_500 }, 15_000, 31.5);
    expect(Object.keys(cost?.processes ?? {})).toEqual(['gateway', 'sms-dispatcher', 'dev-stack', 'postgres', 'redis']);
    expect(costCell(cost)).toBe('0.90 (gw 0.30, disp 0.20, dev-stack 0.00, pg 0.40, redis —)');
    expect(costCell({ messages: 1, windowS: 1, processes: { redis: 0.5, gateway: 0.25 }, totalMs: 0.75 })).toBe('0.75 (gw 0.25, redis 0.50)');
    expect(costCell(null)).toBe('—');
    expect(costCell(undefined)).toBe('—');
  });
});
