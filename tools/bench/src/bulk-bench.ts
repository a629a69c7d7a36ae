// `npm run bench -- bulk`: how fast POST /sms/send-bulk accepts campaigns of 100,000 and
// 1,000,000 recipients on this machine, how soon the 100,000 reach the carrier and have their
// receipts, and how much memory each process takes. It measures and reports; it changes nothing.
//
//   1. a throwaway database and Redis prefix; one company with a large balance;
//   2. the stack as for sms, with the simulator answering in 1 ms and receipts 50 ms later;
//   3. a warm-up campaign followed to its end, then ANALYZE;
//   4. 100,000 different valid numbers in one request, timed to the answer; then the run's
//      database polled until every message is final (or BENCH_BULK_TIMEOUT_S), the times taken
//      from its timestamps, and the simulator's counters to confirm what reached it;
//   5. 1,000,000 other numbers scheduled a day ahead, timed to the answer;
//   6. peak memory (VmHWM) of every process; CPU per process and PostgreSQL's sessions per phase,
//      and the CPU ms per message of the 100,000 from their request to their last final state;
//   7. bench/results/bulk-<date>.json, a record in bench/results/runs.jsonl, the README's table.
import { join } from 'node:path';
import { positive, say } from './bench-process';
import { APPS, createBenchCompany, hostMachine, newRun, withBench, type Bench, type BenchCompany, type Run, type RunEnv } from './bench-run';
import {
  campaignRequest,
  followCampaign,
  postCampaign,
  recipients,
  simulatorStats,
  warmUpCampaign,
  WARMUP_RECIPIENTS,
  type Followed,
  type Posted,
} from './bulk-campaign';
import { BENCH_PROCESS, BULK_TARGETS, bulkVerdicts, type AcceptFigures, type BulkFigures } from './bulk-results';
import { campaignOutcome, storedCampaign, type CampaignOutcome } from './campaign-figures';
import { tableFigures } from './database-figures';
import { numbers, throwIfInterrupted } from './http-load';
import { COST_NOTE, cpuLine, observe, observedDetails, perItem, perItemLine, phaseCost, sumCosts, type BenchProcess, type Observed } from './phase-observer';
import { costCell, type CostPerMessage } from './process-cost';
import { peakByName, runMemory, type ProcessMemory } from './process-memory';
import { describeMachine, fileStamp, type Machine } from './results';
import { writeRun } from './run-files';
import { cpuRecord, noteFrom, recordBase, type BulkRecord } from './run-records';

/** The issue's simulator: each submit_sm answered in 1 ms, its receipt soon after. */
const BULK_STACK_ENV: RunEnv = { SMSC_LATENCY_MS: '1', SMSC_RECEIPT_DELAY_MS: '50' };
const SMALL = 100_000;
const LARGE = 1_000_000;
/** The times come from the database's timestamps: polling more often would add load, not precision. */
const POLL_MS = 500;
/** Long enough for a figure even at a small fraction of the target's pace, short of hanging. */
const TIMEOUT_S = 600;
const DAY_MS = 24 * 60 * 60 * 1000;
const BENCH: BenchProcess = { name: BENCH_PROCESS, label: 'bench' };
const TABLES = ['messages', 'message_parts', 'carrier_receipts', 'campaign_batches', 'outbox'];

interface BulkRun extends Run {
  timeoutS: number;
}

/** Everything measured, before it is reported. */
interface BulkMeasured {
  accept100k: Observed<Posted>;
  dispatch: Observed<Followed>;
  outcome: CampaignOutcome;
  simulator: Record<string, number> | null;
  database: { autovacuum: string; tables: Record<string, unknown>[] };
  memoryBefore1M: ProcessMemory[];
  accept1M: Observed<Posted>;
  stored1M: Awaited<ReturnType<typeof storedCampaign>>;
  memory: ProcessMemory[];
}

type Phase100k = Pick<BulkMeasured, 'accept100k' | 'dispatch' | 'outcome' | 'simulator' | 'database'>;

/** Step 4: the 100,000 accepted, then followed until every message is final. */
async function measure100k(bench: Bench, run: BulkRun, gatewayUrl: string, company: BenchCompany, next: () => string): Promise<Phase100k> {
  const { db } = bench;
  const small = campaignRequest(recipients(SMALL, next));
  const simulator = { url: bench.simulatorUrl, acceptedBefore: (await simulatorStats(bench.simulatorUrl))?.['accepted'] ?? 0 };
  say(`accepting a campaign of ${SMALL} recipients (${small.requestMB} MB)`);
  // No settling time: the dispatch starts with the answer and belongs to the next phase.
  const accept100k = await observe(bench, () => postCampaign(gatewayUrl, company, small), { benchProcess: BENCH, settleMs: 0 });
  const { campaignId, answeredAt } = accept100k.result;
  if (!campaignId) throw new Error(`POST /sms/send-bulk of ${SMALL} answered ${accept100k.result.status}: ${accept100k.result.error}`);
  say(`accepted in ${accept100k.result.ms} ms; following it until every message is final (at most ${run.timeoutS} s)`);
  const follow = () => followCampaign(db, campaignId, SMALL, answeredAt, { pollMs: POLL_MS, timeoutS: run.timeoutS, simulator });
  const dispatch = await observe(bench, follow, { benchProcess: BENCH, statements: true });
  const outcome = await campaignOutcome(db, campaignId, answeredAt);
  const autovacuum = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0].autovacuum;
  const database = { autovacuum, tables: await tableFigures(db, TABLES) };
  return { accept100k, dispatch, outcome, simulator: await simulatorStats(bench.simulatorUrl), database };
}

/** Steps 3 to 6: warm-up, the 100,000, the 1,000,000 scheduled, the processes' memory. */
async function measureBulk(bench: Bench, run: BulkRun, gatewayUrl: string, company: BenchCompany): Promise<BulkMeasured> {
  const { db, services } = bench;
  const next = numbers();
  await warmUpCampaign(db, gatewayUrl, company, next, POLL_MS);
  throwIfInterrupted();
  const phase100k = await measure100k(bench, run, gatewayUrl, company, next);
  const memoryBefore1M = runMemory(services.run, BENCH_PROCESS);
  throwIfInterrupted();

  const large = campaignRequest(recipients(LARGE, next), { scheduledTime: new Date(Date.now() + DAY_MS) });
  say(`accepting a campaign of ${LARGE} recipients scheduled a day ahead (${large.requestMB} MB)`);
  const accept1M = await observe(bench, () => postCampaign(gatewayUrl, company, large), { benchProcess: BENCH });
  const stored1M = accept1M.result.campaignId ? await storedCampaign(db, accept1M.result.campaignId) : null;
  return { ...phase100k, memoryBefore1M, accept1M, stored1M, memory: runMemory(services.run, BENCH_PROCESS) };
}

function acceptFigures({ recipients: count, ms, requestMB, status, error }: Posted): AcceptFigures {
  return { recipients: count, ms, requestMB, status, error };
}

/** Only a campaign whose every message and part got there has a time. */
function figuresOf(m: BulkMeasured, run: BulkRun): BulkFigures {
  const { outcome } = m;
  const allSubmitted = outcome.messages === SMALL && outcome.submittedParts === outcome.parts;
  const allFinal = outcome.messages === SMALL && outcome.finalMessages === SMALL;
  return {
    accept100k: acceptFigures(m.accept100k.result),
    submit100kS: allSubmitted ? outcome.lastSubmittedAfterS : null,
    atSimulator100kS: m.dispatch.result.simulatorGotAllAfterS,
    receipts100kS: allFinal ? outcome.lastFinalAfterS : null,
    reached100k: {
      messages: outcome.messages,
      submittedParts: outcome.submittedParts,
      finalMessages: outcome.finalMessages,
      atSimulator: m.dispatch.result.simulatorAccepted,
    },
    timeoutS: run.timeoutS,
    accept1M: acceptFigures(m.accept1M.result),
    peakRssMiB: peakByName(m.memory.filter((p) => [...APPS, BENCH_PROCESS].includes(p.name))),
    gatewayPeakBefore1MMiB: peakByName(m.memoryBefore1M)['gateway'] ?? null,
  };
}

/** Everything the JSON file of the run holds. */
function details(run: BulkRun, host: Machine, m: BulkMeasured, figures: BulkFigures, cost: CostPerMessage | null): object {
  return {
    benchmark: 'bulk',
    started: run.started.toISOString(),
    revision: run.rev,
    machine: host,
    settings: {
      apps: APPS,
      logLevel: 'warn',
      stackEnv: BULK_STACK_ENV,
      recipients: [SMALL, LARGE],
      warmupRecipients: WARMUP_RECIPIENTS,
      batchSize: 'default (1000)',
      pollMs: POLL_MS,
      timeoutS: run.timeoutS,
    },
    figures,
    targets: BULK_TARGETS,
    verdicts: bulkVerdicts(figures),
    cpuMsPerMessage: {
      note: `${COST_NOTE} Here over both phases of the 100,000 (accept100k, then dispatch100k: from sending the request until every message was final), divided by ${SMALL}.`,
      ...cost,
    },
    campaign100k: { outcome: m.outcome, polled: m.dispatch.result, simulatorStats: m.simulator, databaseAfter: m.database },
    campaign1M: { stored: m.stored1M, acceptedWhileThe100kStillDispatched: m.dispatch.result.timedOut },
    memory: { before1M: m.memoryBefore1M, atEnd: m.memory },
    phases: {
      accept100k: observedDetails(
        m.accept100k,
        SMALL,
        'the campaign’s recipients; mostly 0 here: the backends report about a second later, and the dispatch starts with the answer',
      ),
      dispatch100k: observedDetails(m.dispatch, SMALL, 'the campaign’s messages; includes the benchmark’s polls and the second after'),
      accept1M: observedDetails(m.accept1M, LARGE, 'the campaign’s recipients, and the second after'),
    },
    notes: [
      'accept: from sending the request to the last byte of the answer, measured in the benchmark’s process (fetch) on the same machine; the request is serialised before.',
      'submit and receipts: from the answer to the latest message_parts.submitted_at / messages.completed_at of the campaign (PostgreSQL’s now(): the start of the transaction recording them; same clock as the benchmark’s). campaign100k.polled has the moments the benchmark’s polls saw them, an upper bound.',
      'at simulator: the first poll of the simulator’s GET /stats whose `accepted` count, less its count before the campaign, reached 100,000; campaign100k.simulatorStats counts every submit_sm of the run, the warm-up campaign’s included (receipts_sent counts resent receipts too).',
      `the simulator’s GET /stats is polled every ${POLL_MS} ms; the database (one count over the campaign’s messages: campaign100k.polled.pollQueryMsTotal is their total time) every 5 s until the simulator has every part, then every ${POLL_MS} ms until every message is final; the ANALYZE after the warm-up, when every message is delivered, is the run’s only one when the server runs without autovacuum (campaign100k.databaseAfter): the planner then expects few pending or unsettled rows, as in a database in service.`,
      'peak memory: VmHWM of /proc/<pid>/status at the end of the run (memory.before1M: before the 1,000,000 were sent).',
      'the 1,000,000 are scheduled a day ahead, so the run does not dispatch them; the throwaway database and queue keys holding them are removed at the end.',
    ],
  };
}

function summary(f: BulkFigures, m: BulkMeasured, host: Machine, run: BulkRun, cpu: { line: string; cost: string }, path: string): string {
  const v = bulkVerdicts(f);
  const met = (value: boolean) => (value ? 'met' : 'NOT met');
  const sim = m.simulator
    ? `simulator: ${m.simulator['accepted']} submit_sm accepted, ${m.simulator['receipts_sent']} receipts sent (warm-up included)`
    : 'simulator: no /stats';
  return [
    `bulk: 100,000 accepted in ${f.accept100k.ms} ms (HTTP ${f.accept100k.status}, ${f.accept100k.requestMB} MB) — target ≤ ${BULK_TARGETS.accept100kMs} ms: ${met(v.accept100k)}`,
    `  all submitted ${f.submit100kS ?? '—'} s after (all at the simulator ${f.atSimulator100kS ?? '—'} s after) — target ≤ ${BULK_TARGETS.submit100kS} s: ${met(v.submit100k)}; all receipts stored ${f.receipts100kS ?? '—'} s after — target ≤ ${BULK_TARGETS.receipts100kS} s: ${met(v.receipts100k)}`,
    `  reached: ${m.outcome.messages} messages, ${m.outcome.submittedParts} parts submitted, ${m.outcome.receiptsStored} receipts stored, ${m.outcome.finalMessages} final (${m.outcome.deliveredMessages} delivered); ${sim}`,
    `  1,000,000 scheduled accepted in ${f.accept1M.ms} ms (HTTP ${f.accept1M.status}, ${f.accept1M.requestMB} MB); gateway peak ≤ ${BULK_TARGETS.gatewayPeak1MMiB} MiB: ${met(v.gatewayMemory1M)}`,
    `  peak MiB: ${Object.entries(f.peakRssMiB)
      .map(([name, mib]) => `${name} ${mib}`)
      .join(', ')} (gateway before the 1,000,000: ${f.gatewayPeakBefore1MMiB})`,
    `  CPU while dispatching (% of one core): ${cpu.line}`,
    `  CPU ms per campaign message, from its request to its final state: ${cpu.cost}`,
    `  ${perItemLine(perItem(m.dispatch.cpu, SMALL), 'campaign message while dispatching', BENCH)}`,
    `  machine: ${describeMachine(host)}; commit ${run.rev.commit}${run.rev.dirty ? ' (dirty tree)' : ''}`,
    `  written: ${path}, bench/results/runs.jsonl and the table of bench/results/README.md`,
    '',
  ].join('\n');
}

async function report(bench: Bench, run: BulkRun, measured: BulkMeasured): Promise<void> {
  const figures = figuresOf(measured, run);
  const host = await hostMachine(bench);
  const file = `bulk-${fileStamp(run.started)}.json`;
  const cost = phaseCost({ cost: sumCosts([measured.accept100k.cost, measured.dispatch.cost]) }, SMALL);
  const record: BulkRecord = {
    benchmark: 'bulk',
    ...recordBase(run.started, run.rev, host),
    settings: {},
    figures,
    verdicts: bulkVerdicts(figures),
    cpu: cpuRecord(measured.dispatch.cpu, BENCH, cost),
    file,
    ...noteFrom(process.env),
  };
  const path = writeRun(join(run.root, 'bench/results'), details(run, host, measured, figures, cost), record);
  process.stdout.write(summary(figures, measured, host, run, { line: cpuLine(measured.dispatch.cpu, BENCH), cost: costCell(cost) }, path));
}

export async function runBulkBench(): Promise<void> {
  const run: BulkRun = { ...newRun(process.env), timeoutS: positive(process.env['BENCH_BULK_TIMEOUT_S'], TIMEOUT_S, 'BENCH_BULK_TIMEOUT_S') };
  await withBench(
    run,
    (env) => createBenchCompany(run.root, env),
    async (bench, gatewayUrl, company) => report(bench, run, await measureBulk(bench, run, gatewayUrl, company)),
    BULK_STACK_ENV,
  );
}
