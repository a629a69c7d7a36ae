import { bulkSection, bulkReadmeRow, bulkVerdicts, type BulkFigures } from './bulk-results';
import { parseStatusMemory, peakByName } from './process-memory';
import { withRow } from './readme-sections';
import type { Machine } from './results';
import { smsSection } from './sms-results';

const accept = (recipients: number, ms: number, requestMB: number, status: number | null = 200) => ({ recipients, ms, requestMB, status, error: null });
const figures = (overrides: Partial<BulkFigures> = {}): BulkFigures => ({
  accept100k: accept(100_000, 812.4, 1.5),
  submit100kS: 12.34,
  atSimulator100kS: 11.5,
  receipts100kS: 20.1,
  reached100k: { messages: 100_000, submittedParts: 100_000, finalMessages: 100_000, atSimulator: 100_000 },
  timeoutS: 300,
  accept1M: accept(1_000_000, 7_450.2, 15.2),
  peakRssMiB: { gateway: 700.2, 'sms-dispatcher': 180, 'smsc-simulator': 150.5, bench: 420 },
  gatewayPeakBefore1MMiB: 250,
  ...overrides,
});
const host: Machine = { cpu: 'Test CPU', cores: 2, memoryGiB: 4, kernel: '6.1', node: 'v20', postgres: 'PostgreSQL 15', redis: '7' };
const row = (f: BulkFigures) =>
  bulkReadmeRow({ started: new Date('2026-11-22T06:00:01.250Z'), revision: { commit: 'abc1234', dirty: true }, machine: host, figures: f, cpu: 'gw 40', file: 'bulk-x.json' });

describe('bulk bench results', () => {
  it('meets each target within its limit', () => {
    expect(bulkVerdicts(figures())).toEqual({ accept100k: true, submit100k: true, receipts100k: true, gatewayMemory1M: true });
    const edge = bulkVerdicts(figures({ accept100k: accept(100_000, 1_000, 1.5), submit100kS: 15, receipts100kS: 25, peakRssMiB: { gateway: 1_024 } }));
    expect(edge).toEqual({ accept100k: true, submit100k: true, receipts100k: true, gatewayMemory1M: true });
    const over = bulkVerdicts(figures({ accept100k: accept(100_000, 1_000.1, 1.5), submit100kS: 15.1, receipts100kS: 25.1, peakRssMiB: { gateway: 1_024.1 } }));
    expect(over).toEqual({ accept100k: false, submit100k: false, receipts100k: false, gatewayMemory1M: false });
  });

  it('meets no target with a refused request, a campaign that did not finish or no gateway figure', () => {
    expect(bulkVerdicts(figures({ accept100k: accept(100_000, 300, 1.5, 500) })).accept100k).toBe(false);
    expect(bulkVerdicts(figures({ submit100kS: null, receipts100kS: null }))).toMatchObject({ submit100k: false, receipts100k: false });
    expect(bulkVerdicts(figures({ accept1M: accept(1_000_000, 9_000, 15.2, 413) })).gatewayMemory1M).toBe(false);
    expect(bulkVerdicts(figures({ accept1M: accept(1_000_000, 9_000, 15.2, null) })).gatewayMemory1M).toBe(false);
    expect(bulkVerdicts(figures({ peakRssMiB: {} })).gatewayMemory1M).toBe(false);
  });

  it('writes one README row with the times, the sizes, the peaks and the verdicts', () => {
    expect(row(figures({ receipts100kS: 26 }))).toBe(
      '| 2026-11-22T06:00:01Z | abc1234+dirty | 2 × Test CPU | 812 | 1.5 | 12.3 | 11.5 | 26.0 | 7450 | 15.2 | 700 / 180 / 151 / 420 | met | met | **not met** | met | gw 40 | [bulk-x.json](bulk-x.json) |\n',
    );
  });

  it('says how far the campaign got, and why an acceptance has no time', () => {
    const f = figures({
      submit100kS: null,
      atSimulator100kS: null,
      receipts100kS: null,
      reached100k: { messages: 90_000, submittedParts: 81_234, finalMessages: 80_000, atSimulator: 95_000 },
      accept1M: accept(1_000_000, 30_500, 15.2, 413),
      peakRssMiB: { gateway: 1_500 },
    });
    expect(row(f)).toBe(
      '| 2026-11-22T06:00:01Z | abc1234+dirty | 2 × Test CPU | 812 | 1.5 | — (81234 of 100000 after 300 s) | — (95000 of 100000 after 300 s) | — (80000 of 100000 after 300 s) | — (HTTP 413 after 30500 ms) | 15.2 | 1500 / — / — / — | met | **not met** | **not met** | **not met** | gw 40 | [bulk-x.json](bulk-x.json) |\n',
    );
    expect(row(figures({ accept1M: accept(1_000_000, 12.3, 15.2, null) }))).toContain('| — (no answer after 12 ms) |');
  });

  it('has its own README section, with a legend for every column, after the others', () => {
    const section = bulkSection(host);
    const readme = withRow(withRow('', smsSection(host), '| sms row |\n'), section, row(figures()));
    expect(readme).toContain('\n## bulk — campaigns of 100,000 and 1,000,000 recipients\n');
    expect(readme.indexOf('| sms row |')).toBeLessThan(readme.indexOf('## bulk'));
    const columns = section.tableHeader.split('\n')[0].split('|').map((c) => c.trim()).filter(Boolean);
    expect(section.tableHeader.split('\n')[1].split('|').filter((c) => c === '---')).toHaveLength(columns.length);
    for (const column of columns.filter((c) => c !== 'machine' && c !== 'file')) {
      expect(section.body).toMatch(new RegExp(`\\| ${column.split(' ')[0].replace(/[()]/g, '\\$&')}[^|]*\\|`));
    }
  });
});

describe('process memory', () => {
  it('reads the peak and current resident memory of a status file in MiB', () => {
    expect(parseStatusMemory('Name:\tnode\nVmPeak:\t 2000000 kB\nVmHWM:\t  524288 kB\nVmRSS:\t  262656 kB\n')).toEqual({ peakRssMiB: 512, rssMiB: 256.5 });
    expect(parseStatusMemory('Name:\tkthreadd\n')).toBeUndefined();
  });

  it('keeps the highest peak of each name', () => {
    const p = (name: string, pid: number, peakRssMiB: number) => ({ name, pid, peakRssMiB, rssMiB: 1 });
    expect(peakByName([p('gateway', 1, 300), p('bench', 2, 50), p('gateway', 3, 310)])).toEqual({ gateway: 310, bench: 50 });
  });
});
