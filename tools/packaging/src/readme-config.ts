// Reads the README's "Configuration" table: the variables it documents, one or more per row.
import { join } from 'node:path';
import { read, ROOT } from './platform-facts';

/** A variable name, or a group written with shell-style braces: `SMSC_STANDARD_{HOST,PORT}`. */
const NAME = /^[A-Z][A-Z0-9_]*$/;
const GROUP = /^([A-Z][A-Z0-9_]*)?\{([A-Z0-9_]+(?:,[A-Z0-9_]+)+)\}([A-Z0-9_]*)$/;

export interface DocumentedRow {
  /** The row's first cell, as written. */
  cell: string;
  variables: string[];
}

/** The names one backticked token of the table's first column stands for; throws on anything else. */
export function expandName(token: string): string[] {
  if (NAME.test(token)) return [token];
  const group = GROUP.exec(token);
  if (group) {
    const [, prefix = '', alternatives, suffix] = group;
    const names = alternatives.split(',').map((alternative) => `${prefix}${alternative}${suffix}`);
    if (names.every((name) => NAME.test(name))) return names;
  }
  throw new Error(`\`${token}\` is neither a variable name nor a {A,B} group of them`);
}

/** The lines of a markdown section, from its heading up to the next heading of the same or a higher level. */
export function section(markdown: string, heading: string): string[] {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  const level = /^#+/.exec(heading)?.[0].length ?? 1;
  const end = lines.findIndex((line, index) => index > start && /^#+ /.test(line) && (/^#+/.exec(line)?.[0].length ?? 0) <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The rows of the first table of a section whose first header cell is "Variable". */
export function configurationRows(markdown: string, heading = '### Configuration'): DocumentedRow[] {
  const lines = section(markdown, heading);
  const header = lines.findIndex((line) => /^\|\s*Variable\s*\|/.test(line));
  if (header < 0) throw new Error(`no table with a "Variable" column under "${heading}"`);
  const rows: DocumentedRow[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cell = line.split('|')[1].trim();
    const tokens = [...cell.matchAll(/`([^`]+)`/g)].map(([, token]) => token);
    if (tokens.length === 0) throw new Error(`a row names no variable in backticks: ${line}`);
    rows.push({ cell, variables: tokens.flatMap(expandName) });
  }
  return rows;
}

export function readmeRows(): DocumentedRow[] {
  return configurationRows(read(join(ROOT, 'README.md')));
}
