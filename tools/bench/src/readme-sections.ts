// bench/results/README.md holds one section per benchmark (`## sms — …`, `## otp — …`), each
// with what it measures, its column legend and its table of runs, newest last. A run's row goes at
// the end of its own section's table, whatever follows the table; a section that is not there yet
// is added at the end of the file. Everything else in the file (notes written by hand) stays.

/** The top of the file, written once when a run creates it. */
export const README_INTRO = `# Benchmark results

One row per run of \`npm run bench -- <name>\`, newest last; the JSON file named in the last column
holds every figure of the run (status codes, CPU per process, database wait events, the machine).
`;

export interface ReadmeSection {
  /** The benchmark's name: its heading is the line that starts with `## <name> `. */
  name: string;
  /** The whole heading line, `## <name> — what it measures`. */
  heading: string;
  /** Between the heading and the table: what is measured and the column legend. */
  body: string;
  /** The table's header line and separator line, each ending with a newline. */
  tableHeader: string;
}

function sectionText(section: ReadmeSection): string {
  return `${section.heading}\n\n${section.body.trim()}\n\n${section.tableHeader}`;
}

function isHeading(line: string, section: ReadmeSection): boolean {
  return line.trimEnd() === section.heading || line.startsWith(`## ${section.name} `) || line.trimEnd() === `## ${section.name}`;
}

/** The README with `row` (one table line ending with a newline) added to the section's table. */
export function withRow(readme: string, section: ReadmeSection, row: string): string {
  if (readme.trim() === '') return `${README_INTRO}\n${sectionText(section)}${row}`;
  const lines = readme.split('\n');
  const start = lines.findIndex((line) => isHeading(line, section));
  if (start < 0) return `${readme.trimEnd()}\n\n${sectionText(section)}${row}`;
  const next = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  const end = next < 0 ? lines.length : next;
  const header = section.tableHeader.split('\n')[0].trim();
  let table = -1;
  for (let index = start + 1; index < end; index++) if (lines[index].trim() === header) table = index;
  const rowLines = row.replace(/\n$/, '').split('\n');
  if (table < 0) {
    // No table with these columns in the section (its columns changed): a new one at its end.
    let last = end;
    while (last > start + 1 && lines[last - 1].trim() === '') last--;
    lines.splice(last, end - last, '', ...section.tableHeader.replace(/\n$/, '').split('\n'), ...rowLines, '');
    return lines.join('\n');
  }
  let after = table + 1;
  while (after < end && lines[after].startsWith('|')) after++;
  lines.splice(after, 0, ...rowLines);
  return lines.join('\n');
}
