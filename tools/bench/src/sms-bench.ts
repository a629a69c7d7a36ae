// `npm run bench -- sms`: how fast POST /sms/send accepts messages on this machine, and how soon
// the dispatcher submits them to the carrier. It measures and reports; it changes nothing.
//
//   1. a throwaway database and Redis prefix; one company with a large balance;
//   2. the SMS path as `npm start` runs it (libs/testing's startStack): gateway, sms-dispatcher,
//      SMSC simulator with receipts after 1 s, LOG_LEVEL=warn;
//   3. autocannon: BENCH_CONNECTIONS (64) connections for BENCH_DURATION_S (30) seconds after a
//      short warm-up, each request one recipient, each recipient a different valid number;
//   4. acceptance → submit: to the message's arrival at the simulator (its GET /messages, joined on
//      the carrier's message id), and to message_parts.submitted_at (the record, an upper bound);
//   5. CPU per process (shares of a core, and ms per accepted message: process-cost.ts) and
//      PostgreSQL wait events over the window: where the time goes;
//   6. bench/results/sms-<date>.json, a record in bench/results/runs.jsonl, the README's table.
import { join } from 'node:path';
import { APPS, createBenchCompany, hostMachine, newRun, RECEIPT_DELAY_MS, withBench, type Bench, type Run } from './bench-run';
import { numbers, type LoadRequest } from './http-load';
import { DRAIN_TIMEOUT_S, measureLoad, WARMUP_S, windowDetails, type Measured } from './measure-window';
import { cpuLine, LOAD_GENERATOR, perItem, perItemLine, phaseCost } from './phase-observer';
import { costCell } from './process-cost';
import { arrivalLine, describeMachine, fileStamp, loadFigures, submitLine, type Machine, type Revision } from './results';
import { writeRun } from './run-files';
import { cpuRecord, noteFrom, recordBase } from './run-records';
import { SMS_TARGETS, smsVerdicts, type SmsBenchFigures, type TargetVerdicts } from './sms-results';

const TEXT = 'Your parcel is on its way';

/** Everything the JSON file of the run holds. */
function details(run: Run, host: Machine, measured: Measured, figures: SmsBenchFigures, verdicts: TargetVerdicts): object {
  return {
    benchmark: 'sms',
    started: run.started.toISOString(),
    revision: run.rev,
    machine: host,
    settings: {
      durationS: run.durationS,
      warmupS: WARMUP_S,
      connections: run.connections,
      apps: APPS,
      logLevel: 'warn',
      receiptDelayMs: RECEIPT_DELAY_MS,
      text: TEXT,
      recipientsPerRequest: 1,
    },
    figures,
    targets: SMS_TARGETS,
    verdicts,
    ...windowDetails(measured.window),
    notes: [
      'latency: autocannon, 2xx answers only, whole milliseconds; autocannon runs in this process on the same machine as the platform.',
      'submit: messages.created_at (start of the acceptance transaction) to message_parts.submitted_at (start of the transaction recording the submit_sm_resp): an upper bound of acceptance → submit_sm.',
      'atSimulator: messages.created_at to the message’s arrival at the SMSC simulator (received_at of GET /messages, joined on the carrier’s message id of its first part), over every message accepted in the window: acceptance → submit_sm as the issue measures it, and what the submit target is judged on.',
      'every request is sent by one company, so every acceptance debits the same balance row.',
      'the run database is ANALYZEd after the warm-up, as a database in service has statistics.',
    ],
  };
}

/** The run's lines on stdout. */
function summary(
  figures: SmsBenchFigures,
  verdicts: TargetVerdicts,
  host: Machine,
  rev: Revision,
  cpu: { line: string; perRequest: string; cost: string },
  path: string,
): string {
  return [
    `sms: ${figures.acceptedPerSecond} accepted/s over ${figures.durationS} s with ${figures.connections} connections (${figures.accepted} accepted, ${figures.non2xx} non-2xx, ${figures.errors} errors)`,
    `  latency ms: p50 ${figures.latencyMs.p50}, p99 ${figures.latencyMs.p99}, p99.9 ${figures.latencyMs.p999}, max ${figures.latencyMs.max}`,
    submitLine(figures.submit, DRAIN_TIMEOUT_S),
    arrivalLine(figures.atSimulator),
    `  target ≥ ${SMS_TARGETS.acceptedPerSecond}/s with p99 ≤ ${SMS_TARGETS.p99Ms} ms: ${verdicts.throughput ? 'met' : 'NOT met'}; submit p99 ≤ ${SMS_TARGETS.submitP99Ms} ms at the simulator: ${verdicts.submit ? 'met' : 'NOT met'}`,
    `  CPU (% of one core): ${cpu.line}`,
    `  CPU ms per accepted message: ${cpu.cost}`,
    `  ${cpu.perRequest}`,
    `  machine: ${describeMachine(host)}; commit ${rev.commit}${rev.dirty ? ' (dirty tree)' : ''}`,
    `  written: ${path}, bench/results/runs.jsonl and the table of bench/results/README.md`,
    '',
  ].join('\n');
}

/** Writes bench/results/sms-<date>.json and the run's record, and prints the summary. */
async function report(bench: Bench, measured: Measured): Promise<void> {
  const { run } = bench;
  const figures = loadFigures(measured.window.result, run.connections, measured.submit, measured.drainedAfterS, measured.atSimulator);
  const host = await hostMachine(bench);
  const file = `sms-${fileStamp(run.started)}.json`;
  const verdicts = smsVerdicts(figures);
  const cost = phaseCost(measured.window, figures.accepted);
  const cpu = cpuRecord(measured.window.cpu, LOAD_GENERATOR, cost);
  const record = {
    benchmark: 'sms' as const,
    ...recordBase(run.started, run.rev, host),
    settings: { warmupS: WARMUP_S },
    figures,
    verdicts,
    cpu,
    file,
    ...noteFrom(process.env),
  };
  const path = writeRun(join(run.root, 'bench/results'), details(run, host, measured, figures, verdicts), record);
  const perRequest = perItemLine(perItem(measured.window.cpu, figures.accepted), 'accepted request');
  process.stdout.write(summary(figures, verdicts, host, run.rev, { line: cpuLine(measured.window.cpu), perRequest, cost: costCell(cost) }, path));
}

export async function runSmsBench(): Promise<void> {
  const run = newRun(process.env);
  await withBench(
    run,
    (env) => createBenchCompany(run.root, env),
    async (bench, gatewayUrl, company) => {
      const nextNumber = numbers();
      const request: LoadRequest = { company, path: '/sms/send', body: () => ({ to: nextNumber(), message: TEXT, from: 'Bench' }) };
      await report(bench, await measureLoad(bench, gatewayUrl, request));
    },
  );
}
