// The SMS benchmark's targets, verdicts, README section and row.
import type { ReadmeSection } from './readme-sections';
import {
  arrivalMet,
  describeMachine,
  fmt,
  runCells,
  submitP99Cell,
  tableRow,
  verdict,
  writeResults,
  type LoadFigures,
  type Machine,
  type Revision,
} from './results';

/** The targets for POST /sms/send on one machine. */
export const SMS_TARGETS = { acceptedPerSecond: 4_000, p99Ms: 30, submitP99Ms: 50 } as const;

export type SmsBenchFigures = LoadFigures;

export interface TargetVerdicts {
  throughput: boolean;
  submit: boolean;
}

export function smsVerdicts(figures: SmsBenchFigures): TargetVerdicts {
  return {
    throughput: figures.acceptedPerSecond >= SMS_TARGETS.acceptedPerSecond && figures.latencyMs.p99 <= SMS_TARGETS.p99Ms,
    // The point: submit_sm at the simulator (the record's time is later, an upper bound).
    submit: arrivalMet(figures.atSimulator, SMS_TARGETS.submitP99Ms),
  };
}

export function smsSection(host: Machine): ReadmeSection {
  return {
    name: 'sms',
    heading: '## sms — POST /sms/send, one recipient per request',
    body: `The whole SMS path runs on this one machine, as \`npm start\` runs it: gateway, sms-dispatcher and
SMSC simulator (receipts after 1 s), on a throwaway PostgreSQL database and Redis key prefix,
\`LOG_LEVEL=warn\`. One company with a large balance sends every request (so every acceptance
debits the same balance row). autocannon, in the benchmark's own process on the same machine,
keeps \`conns\` connections busy for \`dur\` seconds after a 10-second warm-up (3 s in rows before
2026-11-24 17:00 UTC: V8 is still compiling the hot paths during the first ~10 s of load), each
request to a different valid number.

| Column | Meaning |
|---|---|
| date | start of the run (UTC) |
| commit | \`git rev-parse --short HEAD\`; \`+dirty\`: uncommitted changes were in the measured tree |
| dur, conns | measured seconds, concurrent connections |
| accepted/s | 2xx answers per second (each is a message charged and queued) |
| p50, p99, p99.9 | latency of the 2xx answers in ms, as autocannon measures it (whole milliseconds) |
| non-2xx, errors | answers other than 2xx; connection errors and timeouts |
| submit p50, p99 | ms from \`messages.created_at\` (the acceptance transaction) to \`message_parts.submitted_at\` (the dispatcher starting to record the carrier's submit_sm_resp), over the messages accepted in the window: an upper bound of acceptance → submit_sm. \`backlog\`: parts still not submitted when the dispatcher was given up on |
| at sim p50, p99 | ms from \`messages.created_at\` to the message's arrival at the SMSC simulator (its \`received_at\`, joined on the carrier's message id), over every message accepted in the window: acceptance → submit_sm as the issue measures it. Rows before 2026-11-25 12:00 UTC do not have it |
| target: accept | the issue's target, ≥ ${SMS_TARGETS.acceptedPerSecond} accepted/s with p99 ≤ ${SMS_TARGETS.p99Ms} ms |
| target: submit | the issue's target, submit_sm within ${SMS_TARGETS.submitP99Ms} ms at p99: judged at the simulator (\`at sim p99\`) since 2026-11-25 12:00 UTC, on \`submit p99\` before; every message must have arrived |
| CPU | percent of one core over the window: gateway / sms-dispatcher / simulator / PostgreSQL backends of the run / autocannon / everything else on the machine except Redis (other people's processes; Redis is in the JSON file); then the machine-wide busy share of all cores |

Machine of the first run: ${describeMachine(host)}. Rows from another machine say so in \`machine\`.`,
    tableHeader: `| date | commit | machine | dur | conns | accepted/s | p50 | p99 | p99.9 | non-2xx | errors | submit p50 | submit p99 | at sim p50 | at sim p99 | target: accept | target: submit | CPU | file |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
`,
  };
}

export interface SmsRow {
  started: Date;
  revision: Revision;
  machine: Machine;
  figures: SmsBenchFigures;
  cpu: string;
  file: string;
}

export function smsReadmeRow({ started, revision: rev, machine: host, figures: f, cpu, file }: SmsRow): string {
  const verdicts = smsVerdicts(f);
  return tableRow([
    ...runCells(started, rev, host),
    fmt(f.durationS, 1),
    String(f.connections),
    fmt(f.acceptedPerSecond, 0),
    fmt(f.latencyMs.p50),
    fmt(f.latencyMs.p99),
    fmt(f.latencyMs.p999),
    String(f.non2xx),
    String(f.errors),
    fmt(f.submit.p50Ms),
    submitP99Cell(f.submit),
    fmt(f.atSimulator?.p50Ms ?? null),
    arrivalP99Cell(f),
    verdict(verdicts.throughput),
    verdict(verdicts.submit),
    cpu,
    `[${file}](${file})`,
  ]);
}

function arrivalP99Cell({ atSimulator }: SmsBenchFigures): string {
  if (atSimulator === null) return '—';
  const missing = atSimulator.messages - atSimulator.arrived;
  return missing > 0 ? `${fmt(atSimulator.p99Ms)} (${missing} not there)` : fmt(atSimulator.p99Ms);
}

/** Writes bench/results/<row.file> and the row in the README's sms section; returns the JSON file's path. */
export function writeSmsResults(resultsDir: string, row: SmsRow, details: object): string {
  return writeResults(resultsDir, row.file, details, smsSection(row.machine), smsReadmeRow(row));
}
