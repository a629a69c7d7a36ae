import { join, resolve } from 'node:path';
import { findRepoRoot, reachableHost, readSettings, redactUrl } from './settings';

describe('readSettings', () => {
  it('defaults to embedded services, loopback and <repo>/.data', () => {
    expect(readSettings({}, '/repo')).toEqual({
      repoRoot: '/repo',
      dataDir: '/repo/.data',
      databaseUrl: undefined,
      redisUrl: undefined,
      host: '127.0.0.1',
      logLevel: 'info',
      nodeEnv: 'development',
      queuePrefix: undefined,
      apps: undefined,
    });
  });

  it('takes what the environment sets, treating empty as unset', () => {
    const settings = readSettings(
      {
        DATABASE_URL: 'postgres://u@db/x',
        REDIS_URL: '',
        HOST: '0.0.0.0',
        LOG_LEVEL: 'debug',
        QUEUE_PREFIX: 'q',
        MP_DATA_DIR: 'tmp/data',
        MP_APPS: 'gateway,otp',
      },
      '/repo',
    );
    expect(settings).toMatchObject({
      databaseUrl: 'postgres://u@db/x',
      redisUrl: undefined,
      host: '0.0.0.0',
      logLevel: 'debug',
      queuePrefix: 'q',
      dataDir: '/repo/tmp/data',
      apps: ['gateway', 'otp'],
    });
    expect(readSettings({ MP_DATA_DIR: '/abs' }, '/repo').dataDir).toBe('/abs');
  });
});

describe('helpers', () => {
  it('reaches a wildcard address on loopback', () => {
    expect(reachableHost('0.0.0.0')).toBe('127.0.0.1');
    expect(reachableHost('::')).toBe('127.0.0.1');
    expect(reachableHost('::1')).toBe('[::1]');
    expect(reachableHost('localhost')).toBe('localhost');
  });

  it('masks passwords in URLs', () => {
    expect(redactUrl('postgres://u:secret@h:5/db')).toBe('postgres://u:***@h:5/db');
    expect(redactUrl('redis://127.0.0.1:6379')).toBe('redis://127.0.0.1:6379');
    expect(redactUrl('not a url')).toBe('not a url');
  });

  it('finds the repository root above a directory', () => {
    const root = resolve(__dirname, '..', '..', '..');
    expect(findRepoRoot(__dirname)).toBe(root);
    expect(findRepoRoot(join(root, 'dist', 'out', 'tools'))).toBe(root);
    expect(() => findRepoRoot('/')).toThrow('No nx.json above /');
  });
});
