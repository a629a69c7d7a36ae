import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { otpSection } from './otp-results';
import { README_INTRO, withRow, type ReadmeSection } from './readme-sections';
import { writeResults, type Machine } from './results';
import { smsSection } from './sms-results';

const host: Machine = { cpu: 'Test CPU', cores: 2, memoryGiB: 4, kernel: '6.1', node: 'v20', postgres: 'PostgreSQL 15', redis: '7' };
const section = (name: string, columns = '| date | figure |'): ReadmeSection => ({
  name,
  heading: `## ${name} — what it measures`,
  body: `About ${name}.\n\n| Column | Meaning |\n|---|---|\n| figure | a ${name} figure |\n`,
  tableHeader: `${columns}\n|---|---|\n`,
});
const sms = section('sms');
const otp = section('otp');

/** A README as the runs and a person left it: the sms section with notes written by hand. */
const EXISTING = `${README_INTRO}
## sms — what it measures

About sms.

| Column | Meaning |
|---|---|
| figure | a sms figure |

**Where it stands**: written by hand.

| date | figure |
|---|---|
| d1 | s1 |
| d2 | s2 |
`;

describe('bench README sections', () => {
  it('creates the file with the intro, the section, its legend, its table and the row', () => {
    expect(withRow('', sms, '| d1 | s1 |\n')).toBe(
      `${README_INTRO}\n## sms — what it measures\n\nAbout sms.\n\n| Column | Meaning |\n|---|---|\n| figure | a sms figure |\n\n| date | figure |\n|---|---|\n| d1 | s1 |\n`,
    );
  });

  it('adds a row at the end of its section’s table and keeps what was written by hand', () => {
    expect(withRow(EXISTING, sms, '| d3 | s3 |\n')).toBe(EXISTING.replace('| d2 | s2 |\n', '| d2 | s2 |\n| d3 | s3 |\n'));
  });

  it('adds a missing section at the end of the file, after the others', () => {
    const readme = withRow(EXISTING, otp, '| d3 | o1 |\n');
    expect(readme).toBe(`${EXISTING}\n## otp — what it measures\n\nAbout otp.\n\n| Column | Meaning |\n|---|---|\n| figure | a otp figure |\n\n| date | figure |\n|---|---|\n| d3 | o1 |\n`);
  });

  it('puts each run’s row in its own section whichever section comes last', () => {
    let readme = withRow(EXISTING, otp, '| d3 | o1 |\n');
    readme = withRow(readme, sms, '| d4 | s3 |\n');
    readme = withRow(readme, otp, '| d5 | o2 |\n');
    readme = withRow(readme, sms, '| d6 | s4 |\n');
    const [smsPart, otpPart] = readme.split('## otp');
    expect(smsPart).toContain('| d2 | s2 |\n| d4 | s3 |\n| d6 | s4 |\n\n');
    expect(smsPart).toContain('**Where it stands**: written by hand.');
    expect(otpPart).toContain('| date | figure |\n|---|---|\n| d3 | o1 |\n| d5 | o2 |\n');
    expect(otpPart).not.toContain('| s');
    expect(readme.match(/^## /gm)).toHaveLength(2);
  });

  it('starts a new table at the end of the section when its columns changed', () => {
    const readme = withRow(withRow(EXISTING, otp, '| d3 | o1 |\n'), section('sms', '| date | figure | another |'), '| d4 | s3 | x |\n');
    const [smsPart, otpPart] = readme.split('## otp');
    expect(smsPart).toMatch(/\| d2 \| s2 \|\n\n\| date \| figure \| another \|\n\|---\|---\|\n\| d4 \| s3 \| x \|\n\n$/);
    expect(otpPart).toContain('| d3 | o1 |\n');
  });

  it('keeps the sms and otp sections of the real benchmarks apart', () => {
    let readme = withRow('', smsSection(host), '| sms row |\n');
    readme = withRow(readme, otpSection(host), '| otp row |\n');
    readme = withRow(readme, smsSection(host), '| sms row 2 |\n');
    expect(readme.indexOf('| sms row 2 |')).toBeLessThan(readme.indexOf('## otp — POST /otp/send at a fixed rate'));
    expect(readme).toMatch(/\| sms row \|\n\| sms row 2 \|\n\n## otp/);
    expect(readme.endsWith('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n| otp row |\n')).toBe(true);
  });

  it('writes the JSON file and the README row', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bench-results-'));
    try {
      writeFileSync(join(dir, 'README.md'), EXISTING);
      const path = writeResults(dir, 'otp-x.json', { benchmark: 'otp' }, otp, '| d3 | o1 |\n');
      expect(path).toBe(join(dir, 'otp-x.json'));
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ benchmark: 'otp' });
      expect(readFileSync(join(dir, 'README.md'), 'utf8')).toBe(withRow(EXISTING, otp, '| d3 | o1 |\n'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
