import { ConfigError, loadConfig } from '@mp/config';
import { WebhookNotifierEnv } from './webhook-notifier.env';

describe('WebhookNotifierEnv', () => {
  it('refuses loopback and private receivers by default, with a 10 s timeout and the plain schedule', () => {
    expect(loadConfig(WebhookNotifierEnv, {})).toMatchObject({
      PORT: 3104,
      WEBHOOK_ALLOW_LOOPBACK: false,
      WEBHOOK_ALLOW_PRIVATE: false,
      WEBHOOK_TIMEOUT_MS: 10_000,
      WEBHOOK_RETRY_SCALE: 1,
    });
  });

  it.each([
    ['true', true],
    ['TRUE', true],
    ['1', true],
    ['false', false],
    ['False', false],
    ['0', false],
  ])('reads %p as %p', (text, value) => {
    const config = loadConfig(WebhookNotifierEnv, { WEBHOOK_ALLOW_LOOPBACK: text, WEBHOOK_ALLOW_PRIVATE: text });
    expect(config.WEBHOOK_ALLOW_LOOPBACK).toBe(value);
    expect(config.WEBHOOK_ALLOW_PRIVATE).toBe(value);
  });

  it('reads numbers', () => {
    expect(loadConfig(WebhookNotifierEnv, { WEBHOOK_RETRY_SCALE: '0.001', WEBHOOK_TIMEOUT_MS: '2500' })).toMatchObject({
      WEBHOOK_RETRY_SCALE: 0.001,
      WEBHOOK_TIMEOUT_MS: 2500,
    });
  });

  it.each([
    [{ WEBHOOK_ALLOW_LOOPBACK: 'yes' }, 'WEBHOOK_ALLOW_LOOPBACK="yes": must be true or false'],
    [{ WEBHOOK_ALLOW_PRIVATE: 'on' }, 'WEBHOOK_ALLOW_PRIVATE="on"'],
    [{ WEBHOOK_RETRY_SCALE: '0' }, 'WEBHOOK_RETRY_SCALE="0"'],
    [{ WEBHOOK_RETRY_SCALE: 'fast' }, 'WEBHOOK_RETRY_SCALE="fast"'],
    [{ WEBHOOK_TIMEOUT_MS: '10' }, 'WEBHOOK_TIMEOUT_MS="10"'],
  ])('refuses %p, naming the variable', (env, named) => {
    expect(() => loadConfig(WebhookNotifierEnv, env)).toThrow(ConfigError);
    expect(() => loadConfig(WebhookNotifierEnv, env)).toThrow(named);
  });
});
