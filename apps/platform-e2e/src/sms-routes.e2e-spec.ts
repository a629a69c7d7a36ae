import {
  admin,
  eventually,
  freePort,
  startSmscSimulatorProcess,
  startStack,
  type HandsetMessage,
  type RunningStack,
  type SmscSimulatorProcess,
} from '@mp/testing';
import { ApiClient, createCompany, simulatorMessages, type Company } from './support/api-client';

/**
 * Per-route carriers: the sms-dispatcher binds to the SMSC of SMSC_STANDARD_* as well as to the
 * default one, and each part goes to its route's SMSC. Two real SMSC simulators: the dev-stack's
 * (the default SMSC) and one started beside it for route `standard`.
 */
describe('SMS routes with an SMSC of their own', () => {
  let stack: RunningStack;
  let company: Company;
  let standardSmsc: SmscSimulatorProcess;
  let defaultSmscUrl: string;

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );
  const send = async (body: Record<string, unknown>): Promise<string> => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', body);
    const answer = response.body;
    expect({ status: response.status, answer }).toEqual({ status: 200, answer: expect.objectContaining({ data: expect.anything() }) });
    return answer.data.message_id;
  };
  const status = async (id: string): Promise<unknown> => (await api.get<{ data: { status: string } }>(`/sms/${id}`)).body.data.status;
  const defaultHandset = (to: string): Promise<HandsetMessage[]> => simulatorMessages<HandsetMessage>(defaultSmscUrl, to);

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Routes', '5');
    standardSmsc = await startSmscSimulatorProcess({ SMSC_RECEIPT_DELAY_MS: '50' });
    const httpPort = await freePort();
    defaultSmscUrl = `http://127.0.0.1:${httpPort}`;
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher', 'smsc-simulator'],
      env: {
        SMSC_SIMULATOR_PORT: String(httpPort),
        SMSC_RECEIPT_DELAY_MS: '50',
        SMSC_STANDARD_HOST: '127.0.0.1',
        SMSC_STANDARD_PORT: String(standardSmsc.smppPort),
      },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await standardSmsc?.stop();
  });

  it('sends route standard to its own SMSC, and auto (and premium, which has none) to the default SMSC', async () => {
    const sent = {
      standard: await send({ to: '+447911123301', message: 'By the standard route', route: 'standard' }),
      auto: await send({ to: '+447911123302', message: 'By the auto route' }),
      premium: await send({ to: '+447911123303', message: 'By the premium route', route: 'premium' }),
    };
    // Delivered: each SMSC's receipt came back to the dispatcher over its own binds.
    for (const [route, id] of Object.entries(sent)) {
      expect({
        route,
        status: await eventually(
          () => status(id),
          (value) => value === 'delivered',
        ),
      }).toEqual({ route, status: 'delivered' });
    }

    expect((await standardSmsc.messages('+447911123301')).map(({ text }) => text)).toEqual(['By the standard route']);
    expect(await defaultHandset('+447911123301')).toEqual([]);
    expect((await defaultHandset('+447911123302')).map(({ text }) => text)).toEqual(['By the auto route']);
    expect((await defaultHandset('+447911123303')).map(({ text }) => text)).toEqual(['By the premium route']);
    expect(await standardSmsc.messages('+447911123302')).toEqual([]);
    expect(await standardSmsc.messages('+447911123303')).toEqual([]);
  });
});
