import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedDatabaseUrl, readRecordedPort } from './embedded-postgres';

describe('embedded PostgreSQL', () => {
  it('serves the database messaging on loopback', () => {
    expect(embeddedDatabaseUrl(54_320)).toBe('postgres://postgres:postgres@127.0.0.1:54320/messaging');
    expect(embeddedDatabaseUrl(54_321, 'postgres')).toMatch(/:54321\/postgres$/);
  });

  it('reads the port recorded by the last run, if any', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-stack-pg-'));
    try {
      const file = join(dir, 'postgres.json');
      expect(readRecordedPort(file)).toBeUndefined();
      writeFileSync(file, '{"port":54322}');
      expect(readRecordedPort(file)).toBe(54_322);
      writeFileSync(file, '{"port":"54322"}');
      expect(readRecordedPort(file)).toBeUndefined();
      writeFileSync(file, 'not json');
      expect(readRecordedPort(file)).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
