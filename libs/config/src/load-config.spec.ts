import { IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CredentialEnv, DEV_SECRETS, RequiredInProduction } from './common.env';
import { ConfigError, envVariables, loadConfig } from './load-config';

class ExampleEnv extends CredentialEnv {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;

  /** Optional, with no default: no key of `new ExampleEnv()`. */
  @IsOptional()
  @IsInt()
  @Min(1)
  BACKUP_PORT?: number;

  @IsString()
  @RequiredInProduction()
  UPSTREAM_HOST: string = '127.0.0.1';
}

/** Where production needs its stores named: the development defaults point at this machine. */
const STORES = { DATABASE_URL: 'postgres://db.internal/messaging', REDIS_URL: 'redis://cache.internal:6379' };
const PRODUCTION = { NODE_ENV: 'production', ...STORES, API_KEY_PEPPER: 'p'.repeat(48), UPSTREAM_HOST: 'upstream.internal' };

describe('loadConfig', () => {
  it('keeps defaults that work on a developer machine', () => {
    const config = loadConfig(ExampleEnv, {});
    expect(config).toMatchObject({ PORT: 3000, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: 'mp', NODE_ENV: 'development' });
  });

  it('takes a Redis Cluster with a hash-tag prefix, and a prefix in braces on one server too', () => {
    expect(loadConfig(ExampleEnv, { REDIS_URL: 'redis+cluster://a:7000,b:7001', QUEUE_PREFIX: '{mp}' })).toMatchObject({ QUEUE_PREFIX: '{mp}' });
    expect(loadConfig(ExampleEnv, { QUEUE_PREFIX: '{mp}', DATABASE_POOLER: 'pgbouncer-transaction' })).toMatchObject({
      DATABASE_POOLER: 'pgbouncer-transaction',
    });
  });

  it('converts values to the declared types', () => {
    expect(loadConfig(ExampleEnv, { PORT: '8080' }).PORT).toBe(8080);
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT="abc"'],
    [{ PORT: '70000' }, 'PORT="70000"'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL="mysql://x": must be a postgres:// URL'],
    [{ REDIS_URL: 'localhost' }, 'REDIS_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ API_KEY_PEPPER: 'short' }, 'API_KEY_PEPPER'],
    [{ QUEUE_PREFIX: 'has space' }, 'QUEUE_PREFIX'],
    [{ REDIS_URL: 'redis+cluster://a:7000,b:7001', QUEUE_PREFIX: 'mp' }, 'QUEUE_PREFIX="mp": must be a hash tag such as {mp}'],
    [{ DATABASE_POOLER: 'pgpool' }, 'DATABASE_POOLER'],
  ])('refuses %p, naming the variable', (env, named) => {
    expect(() => loadConfig(ExampleEnv, env)).toThrow(ConfigError);
    expect(() => loadConfig(ExampleEnv, env)).toThrow(named);
  });

  it('reads every validated property, optional ones without a default included', () => {
    expect(envVariables(ExampleEnv)).toEqual(expect.arrayContaining(['BACKUP_PORT', 'PORT', 'API_KEY_PEPPER', 'NODE_ENV', 'UPSTREAM_HOST']));
    expect(loadConfig(ExampleEnv, { BACKUP_PORT: '2800' }).BACKUP_PORT).toBe(2800);
    expect(loadConfig(ExampleEnv, {}).BACKUP_PORT).toBeUndefined();
    expect(() => loadConfig(ExampleEnv, { BACKUP_PORT: '0' })).toThrow('BACKUP_PORT="0"');
  });

  it('refuses an env class with a setting the loader could not read (no validation decorator)', () => {
    class Unchecked extends ExampleEnv {
      FORGOTTEN: string = 'x';
    }
    expect(() => loadConfig(Unchecked, {})).toThrow('Unchecked: FORGOTTEN has no validation decorator');
  });

  it('refuses the development secrets in production and accepts private ones', () => {
    expect(() => loadConfig(ExampleEnv, { ...PRODUCTION, API_KEY_PEPPER: '' })).toThrow(/API_KEY_PEPPER.*private value/);
    const pepper = 'p'.repeat(48);
    expect(loadConfig(ExampleEnv, { ...PRODUCTION, API_KEY_PEPPER: pepper }).API_KEY_PEPPER).toBe(pepper);
    expect(loadConfig(ExampleEnv, {}).API_KEY_PEPPER).toBe(DEV_SECRETS.API_KEY_PEPPER);
  });

  it('in production, refuses a default marked RequiredInProduction until the variable is set, even to the same value', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(ExampleEnv, env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ ...PRODUCTION, UPSTREAM_HOST: '', DATABASE_URL: '', REDIS_URL: '' }).sort()).toEqual([
      'DATABASE_URL: must be set when NODE_ENV=production (the default is for development)',
      'REDIS_URL: must be set when NODE_ENV=production (the default is for development)',
      'UPSTREAM_HOST: must be set when NODE_ENV=production (the default is for development)',
    ]);
    expect(problems({ ...PRODUCTION, UPSTREAM_HOST: '127.0.0.1' })).toEqual([]);
    expect(loadConfig(ExampleEnv, {}).UPSTREAM_HOST).toBe('127.0.0.1');
  });

  it("in production, refuses the example files' placeholder in any variable, naming it", () => {
    expect(() => loadConfig(ExampleEnv, { ...PRODUCTION, UPSTREAM_HOST: 'change-me' })).toThrow(`UPSTREAM_HOST="change-me": is the example's placeholder`);
    expect(() => loadConfig(ExampleEnv, { ...PRODUCTION, UPSTREAM_HOST: 'CHANGE_ME' })).toThrow(/UPSTREAM_HOST/);
    expect(loadConfig(ExampleEnv, { UPSTREAM_HOST: 'change-me' }).UPSTREAM_HOST).toBe('change-me');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(ExampleEnv, { PORT: '' }).PORT).toBe(3000);
  });
});
