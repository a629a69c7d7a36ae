import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, eventually, freePort, startSmscSimulatorProcess, startStack, type RunningStack, type SmscSimulatorProcess } from '@mp/testing';
import { ApiClient, createCompany, type Company } from './support/api-client';

/**
 * SMPP over TLS (issue 31, decision 0056): the sms-dispatcher, configured by SMSC_TLS and
 * SMSC_TLS_CA, binds to the TLS port of a real SMSC simulator whose certificate is self-signed and
 * delivers through it; the simulator's plain TCP port is not given to the dispatcher at all.
 */
describe('SMS over SMPP over TLS', () => {
  let stack: RunningStack;
  let company: Company;
  let smsc: SmscSimulatorProcess;
  const folder = mkdtempSync(join(tmpdir(), 'sms-over-tls-'));
  const certificateFile = join(folder, 'smsc.pem');

  const api = new ApiClient(
    () => stack.gatewayUrl,
    () => company,
  );

  beforeAll(async () => {
    await admin(['db:migrate']);
    company = await createCompany('Over TLS', '5');
    const tlsPort = await freePort();
    smsc = await startSmscSimulatorProcess({ SMSC_TLS_PORT: String(tlsPort), SMSC_TLS_CERT_OUT: certificateFile, SMSC_RECEIPT_DELAY_MS: '50' });
    // Written once the listeners are up, which is about when its health answers.
    await eventually(() => existsSync(certificateFile) && readFileSync(certificateFile, 'utf8').includes('END CERTIFICATE'), Boolean, 10_000);
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher'],
      env: { SMSC_HOST: '127.0.0.1', SMSC_PORT: String(tlsPort), SMSC_TLS: 'true', SMSC_TLS_CA: certificateFile },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await smsc?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  // The dispatcher knows only the TLS port: a delivered receipt is a bind, a submit_sm and a deliver_sm over TLS.
  it('binds over TLS trusting the self-signed certificate, and the SMS is delivered with its receipt', async () => {
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+447911123401', message: 'Sent over TLS' });
    expect(response.status).toBe(200);
    const id = response.body.data.message_id;
    const status = await eventually(
      async () => (await api.get<{ data: { status: string } }>(`/sms/${id}`)).body.data.status,
      (value) => value === 'delivered',
    );
    expect(status).toBe('delivered');
    expect((await smsc.messages('+447911123401')).map(({ text }) => text)).toEqual(['Sent over TLS']);
  });
});
