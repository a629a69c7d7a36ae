/**
 * Load benchmarks of the platform on this machine: `npm run bench -- <name>`, after which the
 * figures are in bench/results/: a JSON file per run, a record per run in runs.jsonl, and the
 * table of the latest runs at the top of README.md, made from the records.
 *
 *   sms    POST /sms/send, one recipient per request (sms-bench.ts)
 *   otp    POST /otp/send at a fixed rate, one recipient per request, alone and while a
 *          100,000-recipient campaign drains (otp-bench.ts)
 *   bulk   POST /sms/send-bulk of 100,000 and 1,000,000 recipients, and the 100,000's dispatch (bulk-bench.ts)
 *   report makes the README's table again from runs.jsonl (after a record was edited or removed)
 *
 * Exit codes: 0 done, 1 the run failed, 2 bad command line.
 */
import { join } from 'node:path';
import { repoRoot } from './bench-process';
import { runBulkBench } from './bulk-bench';
import { runOtpBench } from './otp-bench';
import { writeReport } from './run-files';
import { runSmsBench } from './sms-bench';

async function report(): Promise<void> {
  process.stdout.write(`written: ${writeReport(join(repoRoot(), 'bench/results'))}\n`);
}

const BENCHMARKS: Record<string, () => Promise<void>> = {
  sms: runSmsBench,
  otp: runOtpBench,
  bulk: runBulkBench,
  report,
};

function usage(): string {
  return "usage: npm run bench -- <sms|otp|bulk|report>\n  env: BENCH_DURATION_S (default 30), BENCH_CONNECTIONS (default 64), BENCH_OTP_RATE (otp, default 500),\n       BENCH_BULK_TIMEOUT_S (bulk: how long to follow the 100,000, default 600),\n       BENCH_KEEP_DATABASE=1 (keep the run's database afterwards, to study its timestamps or plans),\n       BENCH_NOTE (a note for the run's record: what may make its figures off, e.g. a busy machine)\n";
}

async function main(argv: string[]): Promise<number> {
  const [name] = argv;
  if (!name || !Object.hasOwn(BENCHMARKS, name)) {
    process.stderr.write(name ? `bench: unknown benchmark "${name}"\n${usage()}` : usage());
    return 2;
  }
  await BENCHMARKS[name]();
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
