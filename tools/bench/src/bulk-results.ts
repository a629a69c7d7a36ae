// The bulk benchmark's targets and verdicts.

/** The targets for campaigns on one machine, with the simulator answering in 1 ms. */
export const BULK_TARGETS = { accept100kMs: 1_000, submit100kS: 15, receipts100kS: 25, gatewayPeak1MMiB: 1_024 } as const;

/** The name of the benchmark's own process among the peaks. */
export const BENCH_PROCESS = 'bench';

/** One POST /sms/send-bulk as the figures keep it. */
export interface AcceptFigures {
  recipients: number;
  ms: number;
  requestMB: number;
  /** HTTP status; null: no answer. */
  status: number | null;
  error: string | null;
}

export interface BulkFigures {
  accept100k: AcceptFigures;
  /** Acceptance → the last part's submitted_at; null: not every message submitted before the timeout. */
  submit100kS: number | null;
  /** Acceptance → the first poll of the simulator's GET /stats counting every part accepted (polls every 0.5 s); null: not seen. */
  atSimulator100kS: number | null;
  /** Acceptance → the last message's final state (its receipt stored and applied); null: not all by the timeout. */
  receipts100kS: number | null;
  /** How far the 100,000 got: messages made, parts submitted, messages final. */
  reached100k: { messages: number; submittedParts: number; finalMessages: number; atSimulator: number | null };
  timeoutS: number;
  accept1M: AcceptFigures;
  /** VmHWM of each process over the whole run, MiB: gateway, sms-dispatcher, smsc-simulator, bench. */
  peakRssMiB: Record<string, number>;
  /** The gateway's VmHWM before the 1,000,000 were sent. */
  gatewayPeakBefore1MMiB: number | null;
}

export interface BulkVerdicts {
  accept100k: boolean;
  submit100k: boolean;
  receipts100k: boolean;
  /** The 1,000,000 accepted with the gateway's peak memory within 1 GiB. */
  gatewayMemory1M: boolean;
}

const accepted = (a: AcceptFigures) => a.status !== null && a.status >= 200 && a.status < 300;
const within = (value: number | null, limit: number) => value !== null && value <= limit;

export function bulkVerdicts(f: BulkFigures): BulkVerdicts {
  return {
    accept100k: accepted(f.accept100k) && f.accept100k.ms <= BULK_TARGETS.accept100kMs,
    submit100k: within(f.submit100kS, BULK_TARGETS.submit100kS),
    receipts100k: within(f.receipts100kS, BULK_TARGETS.receipts100kS),
    gatewayMemory1M: accepted(f.accept1M) && within(f.peakRssMiB['gateway'] ?? null, BULK_TARGETS.gatewayPeak1MMiB),
  };
}
