import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BulkFigures } from './bulk-results';
import { latestRuns, latestTable, tableIn, TABLE_END, TABLE_START, targetsCell, withLatestTable } from './latest-table';
import type { CampaignCaseFigures } from './otp-results';
import { perMessage } from './process-cost';
import type { LoadFigures, Machine } from './results';
import { parseRecords, type BulkRecord, type OtpRecord, type RunRecord, type SmsRecord } from './run-records';

const amd: Machine = { cpu: 'AMD EPYC', cores: 2, memoryGiB: 24, kernel: '6.18', node: 'v20', postgres: 'PostgreSQL 15', redis: '7' };
const xeon: Machine = { ...amd, cpu: 'Intel(R) Xeon(R) Processor' };

const load = (p99: number, submitP99: number, overrides: Partial<LoadFigures> = {}): LoadFigures => ({
  durationS: 30,
  connections: 64,
  requests: 150_000,
  accepted: 150_000,
  acceptedPerSecond: 5_012,
  latencyMs: { p50: 10, p99, p999: 40, max: 90, mean: 11 },
  non2xx: 0,
  statusCodes: { '200': 150_000 },
  errors: 0,
  timeouts: 0,
  submit: { samples: 150_000, p50Ms: 8, p99Ms: submitP99, maxMs: 80, notSubmittedAtEnd: 0, drainedAfterS: 0.4 },
  atSimulator: { messages: 150_000, arrived: 150_000, p50Ms: 7, p99Ms: submitP99 - 5, maxMs: 70 },
  ...overrides,
});

function sms(started: string, host: Machine, overrides: Partial<SmsRecord> = {}): SmsRecord {
  return {
    benchmark: 'sms',
    started,
    commit: 'abc1234',
    dirty: false,
    machine: host,
    settings: { warmupS: 10 },
    figures: load(23, 31),
    verdicts: { throughput: true, submit: true },
    cpu: null,
    file: `sms-${started}.json`,
    ...overrides,
  };
}

const campaign = (p99: number, submitP99: number, allSubmittedAfterS: number | null = null): CampaignCaseFigures => ({
  ...load(p99, submitP99),
  campaign: {
    recipients: 100_000,
    acceptMs: 380,
    windowStartAfterS: 0,
    windowEndAfterS: 30,
    atWindowStart: { messagesMade: 1_000, partsSubmitted: 0, messagesFinal: 0 },
    atWindowEnd: { messagesMade: 10_000, partsSubmitted: 8_653, messagesFinal: 8_360 },
    allSubmittedAfterS,
  },
  whileDraining: null,
});

function otp(figures: Partial<OtpRecord['figures']>, verdicts: Partial<OtpRecord['verdicts']> = {}): OtpRecord {
  return {
    benchmark: 'otp',
    started: '2026-11-26T03:22:28Z',
    commit: 'aa7b2dd',
    dirty: false,
    machine: amd,
    settings: { warmupS: 10 },
    figures: { ...load(17.9, 13.1), acceptedPerSecond: 500, overallRate: 500, duringCampaign: campaign(24.3, 15.9), aloneAgain: load(22.9, 10.4), ...figures },
    verdicts: { api: false, submit: true, duringCampaign: false, ...verdicts },
    cpu: null,
    cpuDuringCampaign: null,
    cpuAloneAgain: null,
    file: 'otp-x.json',
  };
}

const bulkFigures = (overrides: Partial<BulkFigures> = {}): BulkFigures => ({
  accept100k: { recipients: 100_000, ms: 315.2, requestMB: 1.5, status: 200, error: null },
  submit100kS: 7.9,
  atSimulator100kS: 8.3,
  receipts100kS: 8,
  reached100k: { messages: 100_000, submittedParts: 100_000, finalMessages: 100_000, atSimulator: 100_000 },
  timeoutS: 600,
  accept1M: { recipients: 1_000_000, ms: 4_188.8, requestMB: 15, status: 200, error: null },
  peakRssMiB: { gateway: 508.7 },
  gatewayPeakBefore1MMiB: 180,
  ...overrides,
});

function bulk(figures: BulkFigures, verdicts: BulkRecord['verdicts']): BulkRecord {
  return {
    benchmark: 'bulk',
    started: '2026-11-26T03:33:43Z',
    commit: '6ac7429',
    dirty: true,
    machine: amd,
    settings: {},
    figures,
    verdicts,
    cpu: null,
    file: 'bulk-x.json',
  };
}

describe('the table of latest runs', () => {
  it('keeps the newest run of each benchmark on each kind of machine, benchmarks in order, newest machines first', () => {
    const records: RunRecord[] = [
      bulk(bulkFigures(), { accept100k: true, submit100k: true, receipts100k: true, gatewayMemory1M: true }),
      sms('2026-11-25T12:33:44Z', amd),
      sms('2026-11-23T22:35:24Z', xeon),
      sms('2026-11-25T12:32:44Z', amd),
      sms('2026-11-24T10:00:00Z', xeon),
    ];
    expect(latestRuns(records).map((r) => `${r.benchmark} ${r.machine.cpu} ${r.started}`)).toEqual([
      'sms AMD EPYC 2026-11-25T12:33:44Z',
      'sms Intel(R) Xeon(R) Processor 2026-11-24T10:00:00Z',
      'bulk AMD EPYC 2026-11-26T03:33:43Z',
    ]);
  });

  it('shows sms against its targets, at the simulator or, in runs before it was measured there, at the record', () => {
    expect(targetsCell(sms('2026-11-25T12:33:44Z', amd))).toBe(
      '5,012 accepted/s with p99 23 ms (≥ 4,000 with ≤ 30): met; submit_sm p99 26 ms at the simulator (≤ 50): met',
    );
    const old = sms('2026-11-23T22:35:24Z', xeon, {
      figures: load(70, 83, { acceptedPerSecond: 1_565, atSimulator: null }),
      verdicts: { throughput: false, submit: false },
    });
    expect(targetsCell(old)).toBe('1,565 accepted/s with p99 70 ms (≥ 4,000 with ≤ 30): **not met**; submit p99 83 ms at the record (≤ 50): **not met**');
  });

  it('shows otp during a campaign against the mean of the alone windows, or the first window in runs before the third', () => {
    expect(targetsCell(otp({}))).toBe(
      'API p99 17.9 ms at 500/s (≤ 15 at 500/s): **not met**; to the carrier p99 8.1 ms at the simulator (≤ 50): met; during a campaign p99 ×1.19, submit p99 ×1.35 of the mean of the alone windows (≤ ×1.10): **not met**',
    );
    expect(targetsCell(otp({ aloneAgain: null }))).toContain('during a campaign p99 ×1.36, submit p99 ×1.21 of alone (≤ ×1.10): **not met**');
    expect(targetsCell(otp({ duringCampaign: null }, { duringCampaign: null }))).toMatch(/; during a campaign: not measured$/);
    const early = otp({ duringCampaign: campaign(24.3, 15.9, 8) }, { duringCampaign: null });
    expect(targetsCell(early)).toMatch(/; during a campaign: not judged \(the campaign was all submitted too early in the window\)$/);
  });

  it('judges otp during a campaign over the part of the window while it drained, when that is what was judged', () => {
    const during: CampaignCaseFigures = {
      ...campaign(24.3, 15.9, 20),
      whileDraining: {
        spanS: 20,
        accepted: 10_000,
        acceptedPerSecond: 500,
        latencyMs: { p50: 9, p99: 40.4, p999: 50, max: 60 },
        submit: { samples: 10_000, p50Ms: 5, p99Ms: 23.5, maxMs: 40 },
      },
    };
    expect(targetsCell(otp({ duringCampaign: during }))).toContain('during a campaign p99 ×1.98, submit p99 ×2.00 of the mean of the alone windows');
  });

  it('shows bulk against its targets, as judged in the run, and how far a campaign got that did not finish', () => {
    expect(targetsCell(bulk(bulkFigures(), { accept100k: true, submit100k: true, receipts100k: true, gatewayMemory1M: true }))).toBe(
      '100,000 accepted in 315 ms (≤ 1,000): met; all submitted in 7.9 s (≤ 15): met; all receipts in 8.0 s (≤ 25): met; 1,000,000 accepted in 4,189 ms, gateway peak 508.7 MiB (≤ 1,024): met',
    );
    const stuck = bulkFigures({
      submit100kS: null,
      receipts100kS: null,
      reached100k: { messages: 100_000, submittedParts: 81_234, finalMessages: 80_000, atSimulator: 81_234 },
      accept1M: { recipients: 1_000_000, ms: 30_500, requestMB: 15, status: 413, error: 'too large' },
    });
    expect(targetsCell(bulk(stuck, { accept100k: true, submit100k: false, receipts100k: false, gatewayMemory1M: false }))).toBe(
      '100,000 accepted in 315 ms (≤ 1,000): met; 81,234 of 100,000 submitted within 600 s (≤ 15): **not met**; 80,000 of 100,000 with their receipts within 600 s (≤ 25): **not met**; 1,000,000 refused (HTTP 413), gateway peak 508.7 MiB (≤ 1,024): **not met**',
    );
  });

  it('makes one row a run: the machine, the commit, the targets, the CPU a message cost and the note', () => {
    const cpu = {
      percentOfOneCore: { gateway: 45 },
      machineBusyPercent: 88,
      msPerMessage: perMessage({ gateway: 45_000, postgres: 60_000, redis: null }, 150_000, 31),
    };
    const table = latestTable([sms('2026-11-26T08:01:02Z', xeon, { dirty: true, cpu, note: '2 cores | shared with others' })]);
    expect(table).toBe(
      [
        '| benchmark | machine | latest run | against the targets | CPU ms per message: sum (each process) | note |',
        '|---|---|---|---|---|---|',
        '| sms | 2 × Intel(R) Xeon(R) Processor | 2026-11-26 08:01 `abc1234+dirty` | 5,012 accepted/s with p99 23 ms (≥ 4,000 with ≤ 30): met; submit_sm p99 26 ms at the simulator (≤ 50): met | 0.70 (gw 0.30, pg 0.40, redis —) | 2 cores \\| shared with others |',
        '',
      ].join('\n'),
    );
  });

  it('replaces the table between its markers and keeps the rest of the README', () => {
    const readme = `# Results\n\nintro\n\n${TABLE_START}\n| old |\n${TABLE_END}\n\n## Method\n`;
    const updated = withLatestTable(readme, '| new |\n');
    expect(updated).toBe(`# Results\n\nintro\n\n${TABLE_START}\n| new |\n${TABLE_END}\n\n## Method\n`);
    expect(tableIn(updated)).toBe('| new |\n');
    expect(withLatestTable('# Results\nintro\n', '| new |\n')).toBe(`# Results\n\n${TABLE_START}\n| new |\n${TABLE_END}\nintro\n`);
    expect(withLatestTable('', '| new |\n')).toBe(`# Benchmark results\n\n${TABLE_START}\n| new |\n${TABLE_END}\n`);
    expect(tableIn('# Results\n')).toBeUndefined();
  });
});

describe('bench/results', () => {
  const dir = join(__dirname, '../../../bench/results');
  const records = parseRecords(readFileSync(join(dir, 'runs.jsonl'), 'utf8'));

  it('has a README whose table of latest runs is the one runs.jsonl makes (npm run bench -- report)', () => {
    expect(tableIn(readFileSync(join(dir, 'README.md'), 'utf8'))).toBe(latestTable(records));
  });

  it('has a record for every run, newest last, each naming its JSON file', () => {
    expect(records.length).toBeGreaterThan(0);
    expect(records.map((r) => r.started)).toEqual(records.map((r) => r.started).sort());
    for (const record of records) expect([record.file, existsSync(join(dir, record.file))]).toEqual([record.file, true]);
  });
});

describe('runs.jsonl', () => {
  it('names the line that is not a record', () => {
    expect(() => parseRecords('{"benchmark":"sms","started":"2026-11-26T00:00:00Z"}\n\nnot json\n')).toThrow(/^runs\.jsonl line 3: /);
    expect(() => parseRecords('{"benchmark":"load","started":"2026-11-26T00:00:00Z"}\n')).toThrow('runs.jsonl line 1: not a run');
  });
});
