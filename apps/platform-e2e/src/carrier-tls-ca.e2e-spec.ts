import { X509Certificate } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  admin,
  createOwnDatabase,
  eventually,
  freePort,
  runAdmin,
  startSmscSimulatorProcess,
  startStack,
  type OwnDatabase,
  type RunningStack,
  type SmscSimulatorProcess,
} from '@mp/testing';
import { Client } from 'pg';
import { ApiClient, type Company } from './support/api-client';

type CarrierListed = {
  name: string;
  tls_ca: { subject: string; sha256: string; not_after: string }[] | null;
  tls_server_name: string | null;
  bound: number | null;
  bind_states: { state: string }[] | null;
};

/**
 * A TLS CA per carrier (issue 31 item 1; decision 0056): two carriers reach the same SMSC
 * simulator's TLS port, whose certificate is self-signed. The one whose CA is that certificate
 * binds and delivers, verified (no SMSC_TLS_REJECT_UNAUTHORIZED=false, no SMSC_TLS_CA); the one
 * without it is refused at the handshake, until the operator gives it the CA at run time. Carriers
 * are global, so the spec works in a database and queue prefix of its own.
 */
describe('a TLS CA per carrier', () => {
  const run = process.env['MP_TEST_RUN'];
  const folder = mkdtempSync(join(tmpdir(), 'carrier-tls-ca-'));
  const certificateFile = join(folder, 'smsc.pem');
  let env: Record<string, string>;
  let own: OwnDatabase;
  let db: Client;
  let smsc: SmscSimulatorProcess;
  let stack: RunningStack | undefined;
  let company: Company;

  const api = new ApiClient(
    () => (stack as RunningStack).gatewayUrl,
    () => company,
  );
  const list = async () => ((await admin(['carrier:list'], env)) as { carriers: CarrierListed[] }).carriers;
  const carrier = async (name: string) => (await list()).find((c) => c.name === name) as CarrierListed;
  const boundTo = (name: string, binds: number) =>
    eventually(
      () => carrier(name),
      (c) => c.bound === binds,
      60_000,
    );

  beforeAll(async () => {
    own = await createOwnDatabase('carrier_tls_ca');
    env = { DATABASE_URL: own.url, QUEUE_PREFIX: `mp-carrier-tls-ca-${run}` };
    await admin(['db:migrate'], env);
    db = new Client({ connectionString: own.url });
    await db.connect();
    company = (await admin(['company:create', '--name', 'Carrier TLS CA', '--balance', '5'], env)) as unknown as Company;
    const tlsPort = await freePort();
    smsc = await startSmscSimulatorProcess({ SMSC_TLS_PORT: String(tlsPort), SMSC_TLS_CERT_OUT: certificateFile, SMSC_RECEIPT_DELAY_MS: '50' });
    await eventually(() => existsSync(certificateFile) && readFileSync(certificateFile, 'utf8').includes('END CERTIFICATE'), Boolean, 10_000);
    const account = ['--host', '127.0.0.1', '--port', String(tlsPort), '--system-id', 'messaging', '--password', 'secret', '--tls'];
    // Its certificate is issued to localhost and 127.0.0.1: the server name is checked too.
    await admin(['carrier:create', '--name', 'trusted', ...account, '--tls-ca-file', certificateFile, '--tls-server-name', 'localhost'], env);
    await admin(['carrier:create', '--name', 'stranger', ...account], env);
    await admin(['route:set', '--prefix', '+', '--carrier', 'trusted', '--priority', '1'], env);
    stack = await startStack({
      apps: ['gateway', 'sms-dispatcher'],
      // SMSC_* would only make a default carrier where none exists; these carriers exist.
      env: { ...env, SMSC_HOST: '127.0.0.1', SMSC_PORT: String(smsc.smppPort), SMSC_TLS_REJECT_UNAUTHORIZED: 'true', CARRIER_POLL_MS: '300' },
    });
  });
  afterAll(async () => {
    await stack?.stop();
    await smsc?.stop();
    await db?.end();
    await own?.drop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('lists which certificate a carrier trusts (subject, fingerprint), never its PEM', async () => {
    const listed = await runAdmin(['carrier:list'], env);
    expect(listed.stdout).not.toContain('BEGIN CERTIFICATE');
    const carriers = (listed.json as { carriers: CarrierListed[] }).carriers;
    const certificate = new X509Certificate(readFileSync(certificateFile));
    expect(carriers.find((c) => c.name === 'trusted')).toMatchObject({
      tls_ca: [{ subject: 'CN=smsc-simulator', sha256: certificate.fingerprint256, not_after: new Date(certificate.validTo).toISOString() }],
      tls_server_name: 'localhost',
    });
    expect(carriers.find((c) => c.name === 'stranger')).toMatchObject({ tls_ca: null, tls_server_name: null });
  });

  it("binds and delivers over TLS to the carrier whose CA is the SMSC's certificate; the other is refused at the handshake", async () => {
    await boundTo('trusted', 1);
    const response = await api.post<{ data: { message_id: string } }>('/sms/send', { to: '+447911123471', message: 'Trusted by its own CA' });
    expect(response.status).toBe(200);
    const id = response.body.data.message_id;
    const status = async () => (await api.get<{ data: { status: string } }>(`/sms/${id}`)).body.data.status;
    expect(await eventually(status, (value) => value === 'delivered')).toBe('delivered');
    expect((await db.query(`SELECT carrier FROM message_parts WHERE message_id = $1`, [id])).rows).toEqual([{ carrier: 'trusted' }]);
    expect((await smsc.messages('+447911123471')).map(({ text }) => text)).toEqual(['Trusted by its own CA']);
    await eventually(
      () => stack?.logs() ?? '',
      (logs) => /smpp_tls_certificate_refused[\s\S]*DEPTH_ZERO_SELF_SIGNED_CERT|DEPTH_ZERO_SELF_SIGNED_CERT[\s\S]*smpp_tls_certificate_refused/.test(logs),
      30_000,
    );
    expect(await carrier('stranger')).toMatchObject({ bound: 0 });
  });

  it("reopens a carrier's binds when its CA is given or taken away, without a restart", async () => {
    expect(await admin(['carrier:update', '--name', 'stranger', '--tls-ca-file', certificateFile, '--tls-server-name', 'localhost'], env)).toMatchObject({
      tls_ca: [expect.objectContaining({ subject: 'CN=smsc-simulator' })],
    });
    await boundTo('stranger', 1);
    expect(await admin(['carrier:update', '--name', 'stranger', '--no-tls-ca', '--no-tls-server-name'], env)).toMatchObject({
      tls_ca: null,
      tls_server_name: null,
    });
    await boundTo('stranger', 0);
    expect(await carrier('trusted')).toMatchObject({ bound: 1 });
  });

  describe('refusals', () => {
    const notCertificate = join(folder, 'notes.txt');
    const withKey = join(folder, 'with-key.pem');
    const brokenCertificate = join(folder, 'broken.pem');
    beforeAll(() => {
      writeFileSync(notCertificate, 'not a certificate\n');
      writeFileSync(withKey, `${readFileSync(certificateFile, 'utf8')}-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n`);
      writeFileSync(brokenCertificate, '-----BEGIN CERTIFICATE-----\nTUlJQg==\n-----END CERTIFICATE-----\n');
    });

    it.each([
      [['--tls-ca-file', join(folder, 'missing.pem')], /--tls-ca-file ".*missing\.pem" cannot be read \(ENOENT\)/, 1],
      [['--tls-ca-file', folder], /--tls-ca-file ".*" cannot be read \(EISDIR\)/, 1],
      [['--tls-ca-file', notCertificate], /--tls-ca-file holds no PEM certificate/, 1],
      [['--tls-ca-file', withKey], /--tls-ca-file holds a private key/, 1],
      [['--tls-ca-file', brokenCertificate], /certificate 1 of 1 is not a valid X\.509 certificate/, 1],
      [['--tls-server-name', '10.0.0.1/8'], /--tls-server-name must be a DNS name/, 1],
      [['--tls-ca-file', ''], /--tls-ca-file must not be empty \(--no-tls-ca clears it\)/, 2],
      [['--tls-ca-file', certificateFile, '--no-tls-ca'], /give --tls-ca-file or --no-tls-ca, not both/, 2],
    ])('carrier:update refuses %p with a message, its exit code and no stack trace', async (options, message, code) => {
      const refused = await runAdmin(['carrier:update', '--name', 'stranger', ...options], env);
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code, stdout: '' });
      expect(refused.stderr).toMatch(message);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    });

    it('carrier:create refuses a CA for a carrier without --tls', async () => {
      const refused = await runAdmin(
        ['carrier:create', '--name', 'plain', '--host', '127.0.0.1', '--port', '2775', '--system-id', 's', '--password', 'p', '--tls-ca-file', certificateFile],
        env,
      );
      expect({ code: refused.code, stdout: refused.stdout }).toEqual({ code: 2, stdout: '' });
      expect(refused.stderr).toMatch(/--tls-ca-file and --tls-server-name are for a TLS carrier: add --tls/);
    });
  });
});
