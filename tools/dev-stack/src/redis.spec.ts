import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { findOnPath, redisServerArgs } from './redis';

describe('redis', () => {
  it('runs redis-server on loopback without persistence', () => {
    expect(redisServerArgs(6379, '/d/redis')).toEqual(['--port', '6379', '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', '/d/redis']);
  });

  it('finds an executable on PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-stack-path-'));
    try {
      const program = join(dir, 'fake-redis-server');
      writeFileSync(program, '#!/bin/sh\n');
      expect(findOnPath('fake-redis-server', ['/nonexistent', dir].join(delimiter))).toBeUndefined();
      chmodSync(program, 0o755);
      expect(findOnPath('fake-redis-server', ['/nonexistent', dir].join(delimiter))).toBe(program);
      expect(findOnPath('fake-redis-server', '')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
