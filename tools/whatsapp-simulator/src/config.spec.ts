import { ConfigError, DEV_SECRETS } from '@mp/config';
import { readSimulatorEnv } from './config';
import { invalidParameterError, invalidTokenError } from './graph-errors';
import { toE164 } from './inbox';

describe('the simulator environment', () => {
  it('defaults to 127.0.0.1:2780, the development secrets, no webhook, statuses after 200 ms and no failures', () => {
    expect(readSimulatorEnv({})).toMatchObject({
      WHATSAPP_SIMULATOR_HOST: '127.0.0.1',
      WHATSAPP_SIMULATOR_PORT: 2780,
      WHATSAPP_ACCESS_TOKEN: DEV_SECRETS.WHATSAPP_ACCESS_TOKEN,
      WHATSAPP_APP_SECRET: DEV_SECRETS.WHATSAPP_APP_SECRET,
      WHATSAPP_SIMULATOR_WEBHOOK_URL: '',
      WHATSAPP_SIMULATOR_STATUS_DELAY_MS: 200,
      WHATSAPP_SIMULATOR_FAILURE_RATE: 0,
    });
  });

  it('falls back to HOST and PORT, which is how the dev-stack passes them', () => {
    expect(readSimulatorEnv({ HOST: '0.0.0.0', PORT: '4780' })).toMatchObject({ WHATSAPP_SIMULATOR_HOST: '0.0.0.0', WHATSAPP_SIMULATOR_PORT: 4780 });
    expect(readSimulatorEnv({ PORT: '4780', WHATSAPP_SIMULATOR_PORT: '0' }).WHATSAPP_SIMULATOR_PORT).toBe(0);
  });

  it('names each bad variable', () => {
    const read = () => readSimulatorEnv({ WHATSAPP_SIMULATOR_FAILURE_RATE: '1.5', WHATSAPP_SIMULATOR_WEBHOOK_URL: 'localhost:3000' });
    expect(read).toThrow(ConfigError);
    expect(read).toThrow('WHATSAPP_SIMULATOR_FAILURE_RATE="1.5"');
    expect(read).toThrow('WHATSAPP_SIMULATOR_WEBHOOK_URL="localhost:3000": must be an http:// or https:// URL');
  });
});

describe("Meta's error answers", () => {
  it('has the OAuth shape with a trace id', () => {
    expect(invalidTokenError()).toEqual({
      error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190, fbtrace_id: expect.stringMatching(/^[\w-]{16}$/) },
    });
    expect(invalidParameterError('to is bad', 2494010).error).toMatchObject({ message: '(#100) to is bad', code: 100, error_subcode: 2494010 });
    expect(invalidParameterError('x').error).not.toHaveProperty('error_subcode');
  });
});

describe('numbers in the inspection query', () => {
  it('reads +, 00, a decoded space or bare digits as E.164', () => {
    expect(toE164('+447700900123')).toBe('+447700900123');
    expect(toE164(' 447700900123')).toBe('+447700900123');
    expect(toE164('00447700900123')).toBe('+447700900123');
    expect(toE164('abc')).toBeNull();
  });
});
