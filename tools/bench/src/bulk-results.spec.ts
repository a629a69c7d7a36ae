import { bulkVerdicts, type BulkFigures } from './bulk-results';
import { parseStatusMemory, peakByName } from './process-memory';

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
