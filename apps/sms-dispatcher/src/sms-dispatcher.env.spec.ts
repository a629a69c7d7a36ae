import { ConfigError, DEV_SECRETS, loadConfig } from '@mp/config';
import { SmsDispatcherEnv } from './sms-dispatcher.env';

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/messaging',
  REDIS_URL: 'redis://cache.internal:6379',
  OTP_TEXT_KEY: Buffer.alloc(32, 7).toString('base64'),
  SMSC_HOST: 'smpp.carrier.example',
  SMSC_SYSTEM_ID: 'acme',
  SMSC_PASSWORD: 'carrier-password',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(SmsDispatcherEnv, env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => problem.split(/[:=]/)[0]);
  }
}

describe('SmsDispatcherEnv', () => {
  it('binds to the simulator of npm start by default, 20 database connections, port 3102', () => {
    expect(loadConfig(SmsDispatcherEnv, {})).toMatchObject({
      PORT: 3102,
      DATABASE_POOL_SIZE: 20,
      SMSC_HOST: '127.0.0.1',
      SMSC_PORT: 2775,
      OTP_TEXT_KEY: DEV_SECRETS.OTP_TEXT_KEY,
    });
    expect(loadConfig(SmsDispatcherEnv, {}).SMSC_STANDARD_HOST).toBeUndefined();
  });

  it('binds over plain TCP by default, and over TLS verifies the certificate unless told not to', () => {
    expect(loadConfig(SmsDispatcherEnv, {})).toMatchObject({ SMSC_TLS: false, SMSC_TLS_REJECT_UNAUTHORIZED: true });
    expect(loadConfig(SmsDispatcherEnv, { SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/ca.pem' })).toMatchObject({
      SMSC_TLS: true,
      SMSC_TLS_CA: '/etc/carrier/ca.pem',
      SMSC_TLS_REJECT_UNAUTHORIZED: true,
    });
    expect(loadConfig(SmsDispatcherEnv, { SMSC_TLS_REJECT_UNAUTHORIZED: 'false' }).SMSC_TLS_REJECT_UNAUTHORIZED).toBe(false);
  });

  it('starts in production over TLS with the carrier given', () => {
    expect(problems({ ...PRODUCTION, SMSC_TLS: 'true', SMSC_TLS_CA: '/etc/carrier/ca.pem', SMSC_PORT: '3550' })).toEqual([]);
  });

  it('starts in production with its stores, the OTP text key and the carrier given', () => {
    expect(problems(PRODUCTION)).toEqual([]);
  });

  it.each(['SMSC_HOST', 'SMSC_SYSTEM_ID', 'SMSC_PASSWORD', 'OTP_TEXT_KEY', 'DATABASE_URL', 'REDIS_URL'])(
    'refuses to start in production without %s',
    (name) => {
      expect(problems({ ...PRODUCTION, [name]: '' })).toEqual([name]);
    },
  );
});
