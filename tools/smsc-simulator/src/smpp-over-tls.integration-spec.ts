// SMPP over TLS (issue 31): the carrier lib's SmppConnection and CarrierRoutes against the SMSC
// simulator's TLS listener, whose certificate is self-signed and made at its start.
import {
  CarrierRoutes,
  SMPP_CONNECTION_DEFAULTS,
  SmppConnection,
  TrafficPolicy,
  type DeliveryReceipt,
  type OutgoingPart,
  type SmppConnectionOptions,
  type SmppLogger,
} from '@mp/carrier';
import { eventually } from '@mp/testing';
import { startSmscSimulator, type RunningSmscSimulator } from './simulator';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function tlsSimulator(): Promise<RunningSmscSimulator & { tlsPort: number; tlsCertificate: string }> {
  const smsc = await startSmscSimulator({ smppPort: 0, httpPort: 0, tlsPort: 0, receiptDelayMs: 20 });
  closers.push(() => smsc.stop());
  const { tlsPort, tlsCertificate } = smsc;
  if (tlsPort === undefined || tlsCertificate === undefined) throw new Error('the simulator has no TLS listener');
  return { ...smsc, tlsPort, tlsCertificate };
}

type LogLine = { level: 'info' | 'warn' | 'error'; event?: string } & Record<string, unknown>;

function recordingLogger(lines: LogLine[]): SmppLogger {
  const record = (level: LogLine['level']) => (o: object) => lines.push({ level, ...o });
  return { info: record('info'), warn: record('warn'), error: record('error') };
}

function connection(options: Pick<SmppConnectionOptions, 'host' | 'port'> & Partial<SmppConnectionOptions>, log: LogLine[] = []): SmppConnection {
  const created = new SmppConnection(
    {
      ...SMPP_CONNECTION_DEFAULTS,
      systemId: 'tls-test',
      password: 'secret',
      responseTimeoutMs: 5_000,
      reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
      traffic: new TrafficPolicy(),
      ...options,
    },
    recordingLogger(log),
  );
  closers.push(() => created.close());
  return created;
}

let nextNumber = 447700900600;
const part = (text = 'Your code is 654321'): OutgoingPart => ({
  source: 'Acme',
  destination: `+${nextNumber++}`,
  dataCoding: 0,
  udh: null,
  payload: Buffer.from(text, 'latin1'),
  userMessageReference: Math.floor(Math.random() * 0x10000),
  registeredDelivery: true,
});

function collectReceipts(target: SmppConnection): DeliveryReceipt[] {
  const receipts: DeliveryReceipt[] = [];
  target.onReceipt((receipt) => receipts.push(receipt));
  return receipts;
}

async function inbox(smsc: RunningSmscSimulator, to: string): Promise<{ text: string }[]> {
  const response = await fetch(`http://${smsc.host}:${smsc.httpPort}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as { text: string }[];
}

describe('SMPP over TLS with the SMSC simulator', () => {
  it('binds over TLS trusting the self-signed certificate as its CA, submits and gets the receipt', async () => {
    const smsc = await tlsSimulator();
    const log: LogLine[] = [];
    const client = connection({ host: smsc.host, port: smsc.tlsPort, transport: { tls: true, ca: smsc.tlsCertificate } }, log);
    const receipts = collectReceipts(client);
    await client.connect();
    expect(log).toContainEqual(expect.objectContaining({ event: 'smpp_bound', tls: true, port: smsc.tlsPort }));

    const sent = part();
    const outcome = await client.submit(sent);
    expect(outcome).toEqual({ ok: true, carrierMessageId: expect.stringMatching(/^[0-9a-f]{16}$/) });
    const id = outcome.ok ? outcome.carrierMessageId : '';
    const received = await eventually(
      () => receipts,
      (list) => list.length > 0,
      5_000,
    );
    expect(received).toEqual([expect.objectContaining({ carrierMessageId: id, stat: 'DELIVRD' })]);
    expect(await inbox(smsc, sent.destination)).toEqual([expect.objectContaining({ text: 'Your code is 654321' })]);
    expect(smsc.stats()).toMatchObject({ binds: 1, accepted: 1, receipts_sent: 1 });
  });

  it('keeps a window of submits and their receipts over TLS as over TCP', async () => {
    const smsc = await tlsSimulator();
    const client = connection({ host: smsc.host, port: smsc.tlsPort, windowSize: 10, transport: { tls: true, ca: smsc.tlsCertificate } });
    const receipts = collectReceipts(client);
    await client.connect();
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => client.submit(part())));
    expect(outcomes.filter((outcome) => outcome.ok)).toHaveLength(40);
    const ids = outcomes.map((outcome) => (outcome.ok ? outcome.carrierMessageId : ''));
    const seen = await eventually(
      () => receipts.map((receipt) => receipt.carrierMessageId),
      (list) => list.length >= 40,
      10_000,
    );
    expect([...seen].sort()).toEqual([...ids].sort());
  });

  it('refuses a certificate it cannot verify: the bind fails with the reason logged, nothing is sent, no plain TCP is tried', async () => {
    const smsc = await tlsSimulator();
    const log: LogLine[] = [];
    const client = connection({ host: smsc.host, port: smsc.tlsPort, transport: { tls: true } }, log);
    await expect(client.connect()).rejects.toThrow(/certificate was refused \(DEPTH_ZERO_SELF_SIGNED_CERT/);
    expect(client.isBound()).toBe(false);
    expect(client.status().state).toBe('closed');
    expect(log).toContainEqual(
      expect.objectContaining({ level: 'error', event: 'smpp_tls_certificate_refused', reason: 'DEPTH_ZERO_SELF_SIGNED_CERT', port: smsc.tlsPort }),
    );
    expect(await client.submit(part())).toMatchObject({ ok: false, permanent: false });
    // Neither listener, TLS or TCP, saw a bind or a submit_sm.
    expect(smsc.stats()).toMatchObject({ binds: 0, submits: 0 });
  });

  it('refuses a trusted certificate issued to another name than the one asked for', async () => {
    const smsc = await tlsSimulator();
    const log: LogLine[] = [];
    const transport = { tls: true, ca: smsc.tlsCertificate, servername: 'smpp.carrier.example' };
    const client = connection({ host: smsc.host, port: smsc.tlsPort, transport }, log);
    await expect(client.connect()).rejects.toThrow(/ERR_TLS_CERT_ALTNAME_INVALID/);
    expect(log).toContainEqual(expect.objectContaining({ event: 'smpp_tls_certificate_refused', reason: 'ERR_TLS_CERT_ALTNAME_INVALID' }));
    expect(smsc.stats().binds).toBe(0);
  });

  it('accepts any certificate only when told to, and says so', async () => {
    const smsc = await tlsSimulator();
    const log: LogLine[] = [];
    const client = connection({ host: smsc.host, port: smsc.tlsPort, transport: { tls: true, rejectUnauthorized: false } }, log);
    await client.connect();
    expect(log).toContainEqual(expect.objectContaining({ level: 'warn', event: 'smpp_tls_unverified' }));
    expect(await client.submit(part())).toMatchObject({ ok: true });
  });

  it('does not fall back to plain TCP on a port that does not speak TLS: the bind never happens', async () => {
    const smsc = await tlsSimulator();
    const log: LogLine[] = [];
    const client = connection({ host: smsc.host, port: smsc.smppPort, transport: { tls: true, ca: smsc.tlsCertificate } }, log);
    void client.connect().catch(() => undefined);
    const failed = await eventually(
      () => log.filter((line) => line.event === 'smpp_socket_error' && line['tls'] === true),
      (lines) => lines.length > 0,
      10_000,
    );
    expect(failed.length).toBeGreaterThan(0);
    expect(client.isBound()).toBe(false);
    expect(smsc.stats().binds).toBe(0);
  });

  it('leaves plain TCP as it was beside the TLS listener, receipts reaching each bind', async () => {
    const smsc = await tlsSimulator();
    const plain = connection({ host: smsc.host, port: smsc.smppPort });
    const secure = connection({ host: smsc.host, port: smsc.tlsPort, systemId: 'tls-test-2', transport: { tls: true, ca: smsc.tlsCertificate } });
    const plainReceipts = collectReceipts(plain);
    const secureReceipts = collectReceipts(secure);
    await Promise.all([plain.connect(), secure.connect()]);
    const [overTcp, overTls] = await Promise.all([plain.submit(part('over tcp')), secure.submit(part('over tls'))]);
    expect(overTcp.ok && overTls.ok).toBe(true);
    await eventually(
      () => plainReceipts.length + secureReceipts.length,
      (count) => count >= 2,
      5_000,
    );
    expect(plainReceipts.map((receipt) => receipt.carrierMessageId)).toEqual([overTcp.ok ? overTcp.carrierMessageId : '']);
    expect(secureReceipts.map((receipt) => receipt.carrierMessageId)).toEqual([overTls.ok ? overTls.carrierMessageId : '']);
  });

  it('reaches a carrier over TLS through CarrierRoutes when its target says so', async () => {
    const smsc = await tlsSimulator();
    const carriers = new CarrierRoutes({
      defaultSmsc: { host: smsc.host, port: smsc.tlsPort, systemId: 'tls-routes', password: 'secret', transport: { tls: true, ca: smsc.tlsCertificate } },
      routes: {},
      binds: 2,
      connection: { ...SMPP_CONNECTION_DEFAULTS, responseTimeoutMs: 5_000, traffic: new TrafficPolicy() },
    });
    closers.push(() => carriers.close());
    carriers.connect(() => undefined);
    await eventually(() => carriers.bindStates().every((bind) => bind.state === 'bound'), Boolean, 10_000);
    expect(carriers.bindStates().map((bind) => bind.state)).toEqual(['bound', 'bound']);
    const sent = part('routed over tls');
    expect(await carriers.submit('auto', sent)).toMatchObject({ ok: true });
    expect(await inbox(smsc, sent.destination)).toEqual([expect.objectContaining({ text: 'routed over tls' })]);
  });
});
