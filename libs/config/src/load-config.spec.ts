import { IsInt, Max, Min } from 'class-validator';
import { CredentialEnv, DEV_SECRETS } from './common.env';
import { ConfigError, loadConfig } from './load-config';

class ExampleEnv extends CredentialEnv {
  @IsInt()
  @Min(1)
  @Max(65535)
  PORT: number = 3000;
}

describe('loadConfig', () => {
  it('keeps defaults that work on a developer machine', () => {
    const config = loadConfig(ExampleEnv, {});
    expect(config).toMatchObject({ PORT: 3000, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: 'mp', NODE_ENV: 'development' });
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
  ])('refuses %p, naming the variable', (env, named) => {
    expect(() => loadConfig(ExampleEnv, env)).toThrow(ConfigError);
    expect(() => loadConfig(ExampleEnv, env)).toThrow(named);
  });

  it('refuses the development secrets in production and accepts private ones', () => {
    expect(() => loadConfig(ExampleEnv, { NODE_ENV: 'production' })).toThrow(/API_KEY_PEPPER.*private value/);
    const pepper = 'p'.repeat(48);
    expect(loadConfig(ExampleEnv, { NODE_ENV: 'production', API_KEY_PEPPER: pepper }).API_KEY_PEPPER).toBe(pepper);
    expect(loadConfig(ExampleEnv, {}).API_KEY_PEPPER).toBe(DEV_SECRETS.API_KEY_PEPPER);
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig(ExampleEnv, { PORT: '' }).PORT).toBe(3000);
  });
});
