import { ConfigError, loadConfig } from '@mp/config';
import { OtpEnv } from './otp.env';

const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db.internal/messaging',
  REDIS_URL: 'redis://cache.internal:6379',
  OTP_TEXT_KEY: Buffer.alloc(32, 7).toString('base64'),
  WHATSAPP_API_BASE_URL: 'https://graph.facebook.com',
  WHATSAPP_PHONE_NUMBER_ID: '123456789012345',
  WHATSAPP_ACCESS_TOKEN: 'EAAG-sample-token',
};

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(OtpEnv, env);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.map((problem) => problem.split(/[:=]/)[0]);
  }
}

describe('OtpEnv', () => {
  it('sends through the WhatsApp simulator of npm start by default, port 3101', () => {
    expect(loadConfig(OtpEnv, {})).toMatchObject({ PORT: 3101, WHATSAPP_API_BASE_URL: 'http://127.0.0.1:2780', WHATSAPP_API_VERSION: 'v21.0' });
  });

  it('starts in production with its stores, the OTP text key and the Cloud API given', () => {
    expect(problems(PRODUCTION)).toEqual([]);
  });

  it.each(['WHATSAPP_API_BASE_URL', 'WHATSAPP_PHONE_NUMBER_ID', 'WHATSAPP_ACCESS_TOKEN', 'OTP_TEXT_KEY', 'DATABASE_URL', 'REDIS_URL'])(
    'refuses to start in production without %s',
    (name) => {
      expect(problems({ ...PRODUCTION, [name]: '' })).toEqual([name]);
    },
  );
});
