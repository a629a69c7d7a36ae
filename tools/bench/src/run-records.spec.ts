import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { latestTable, tableIn, TABLE_END, TABLE_START } from './latest-table';
import type { CpuFigures } from './phase-observer';
import { perMessage } from './process-cost';
import type { LoadFigures, Machine } from './results';
import { writeRun } from './run-files';
import { cpuRecord, machineKind, noteFrom, parseRecords, recordBase, RUNS_FILE, type SmsRecord } from './run-records';

const host: Machine = { cpu: 'AMD EPYC', cores: 2, memoryGiB: 24, kernel: '6.18', node: 'v20', postgres: 'PostgreSQL 15', redis: '7' };
const figures: LoadFigures = {
  durationS: 30,
  connections: 64,
  requests: 100,
  accepted: 100,
  acceptedPerSecond: 3,
  latencyMs: { p50: 10, p99: 20, p999: 30, max: 40, mean: 11 },
  non2xx: 0,
  statusCodes: { '200': 100 },
  errors: 0,
  timeouts: 0,
  submit: { samples: 100, p50Ms: 5, p99Ms: 9, maxMs: 12, notSubmittedAtEnd: 0, drainedAfterS: 0 },
  atSimulator: null,
};

describe('run records', () => {
  it('start with the run’s time to the second, its commit and its machine, whose kind is cores × CPU', () => {
    expect(recordBase(new Date('2026-11-26T08:01:02.345Z'), { commit: 'abc1234', dirty: true }, host)).toEqual({
      started: '2026-11-26T08:01:02Z',
      commit: 'abc1234',
      dirty: true,
      machine: host,
    });
    expect(machineKind(host)).toBe('2 × AMD EPYC');
  });

  it('keep a window’s shares of a core by the names of the old rows’ cell, and what a message cost', () => {
    const cpu: CpuFigures = {
      windowS: 31,
      busy: 88.1,
      shares: [
        { name: 'gateway', pids: [1], percentOfOneCore: 45.2 },
        { name: 'postgres (run)', pids: [2], percentOfOneCore: 43.3 },
        { name: 'redis-server (shared)', pids: [3], percentOfOneCore: 4 },
        { name: 'autocannon (bench)', pids: [4], percentOfOneCore: 19.1 },
        { name: 'everything else', pids: [], percentOfOneCore: 14 },
      ],
    };
    const cost = perMessage({ gateway: 30 }, 100, 31);
    expect(cpuRecord(cpu, { name: 'autocannon (bench)', label: 'ac' }, cost)).toEqual({
      percentOfOneCore: { gateway: 45.2, 'postgres-run': 43.3, bench: 19.1, other: 14 },
      machineBusyPercent: 88.1,
      msPerMessage: cost,
    });
  });

  it('take a note from BENCH_NOTE, and none when it is blank', () => {
    expect(noteFrom({ BENCH_NOTE: ' 2 cores shared with others ' })).toEqual({ note: '2 cores shared with others' });
    expect(noteFrom({ BENCH_NOTE: '  ' })).toEqual({});
    expect(noteFrom({})).toEqual({});
  });

  it('are appended one a line to runs.jsonl by each run, with its JSON file, and the README’s table made again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    try {
      writeFileSync(join(dir, 'README.md'), `# Results\n\n${TABLE_START}\n${TABLE_END}\n\n## Method\n`);
      const record = (started: string): SmsRecord => ({
        benchmark: 'sms',
        started,
        commit: 'abc1234',
        dirty: false,
        machine: host,
        settings: { warmupS: 10 },
        figures,
        verdicts: { throughput: false, submit: false },
        cpu: null,
        file: `sms-${started}.json`,
      });
      const path = writeRun(dir, { benchmark: 'sms', every: 'figure' }, record('2026-11-26T08:00:00Z'));
      writeRun(dir, { benchmark: 'sms' }, record('2026-11-26T09:00:00Z'));
      expect(path).toBe(join(dir, 'sms-2026-11-26T08:00:00Z.json'));
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ benchmark: 'sms', every: 'figure' });
      const records = parseRecords(readFileSync(join(dir, RUNS_FILE), 'utf8'));
      expect(records).toEqual([record('2026-11-26T08:00:00Z'), record('2026-11-26T09:00:00Z')]);
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      expect(tableIn(readme)).toBe(latestTable(records));
      expect(tableIn(readme)).toContain('2026-11-26 09:00');
      expect(readme).toMatch(/\n## Method\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
