// What a run leaves in bench/results: its JSON file with every figure, its record appended to
// runs.jsonl, and the README's table of latest runs made again from all the records.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { latestTable, withLatestTable } from './latest-table';
import { appendRecord, readRecords, type RunRecord } from './run-records';

/** Makes the README's table again from runs.jsonl; returns the README's path. */
export function writeReport(resultsDir: string): string {
  const readme = join(resultsDir, 'README.md');
  const text = existsSync(readme) ? readFileSync(readme, 'utf8') : '';
  writeFileSync(readme, withLatestTable(text, latestTable(readRecords(resultsDir))));
  return readme;
}

/** Writes the run's JSON file, appends its record and remakes the README's table; returns the JSON file's path. */
export function writeRun(resultsDir: string, details: object, record: RunRecord): string {
  mkdirSync(resultsDir, { recursive: true });
  const path = join(resultsDir, record.file);
  writeFileSync(path, `${JSON.stringify(details, null, 2)}\n`);
  appendRecord(resultsDir, record);
  writeReport(resultsDir);
  return path;
}
