// The simulator over real sockets, driven by the smpp package as an independent ESME (the
// SmppConnection tests in libs/carrier cover the rest: windows, throttling, reconnection).
import { connect as connectTcp } from 'node:net';
import { connect, PDU, type Session } from 'smpp';
import { type RunningSmscSimulator, type SmscSimulatorOptions, startSmscSimulator } from './simulator';

const running: RunningSmscSimulator[] = [];
const sessions: Session[] = [];

async function simulator(options: Partial<SmscSimulatorOptions> = {}): Promise<RunningSmscSimulator> {
  const started = await startSmscSimulator({ smppPort: 0, httpPort: 0, receiptDelayMs: 10, ...options });
  running.push(started);
  return started;
}

afterEach(async () => {
  for (const session of sessions.splice(0)) session.destroy();
  await Promise.all(running.splice(0).map((item) => item.stop()));
});

async function open(smsc: RunningSmscSimulator): Promise<Session> {
  const session = connect({ host: smsc.host, port: smsc.smppPort });
  session.on('error', () => undefined);
  sessions.push(session);
  await new Promise<void>((resolve) => session.once('connect', resolve));
  return session;
}

function request(session: Session, command: string, options: Record<string, unknown> = {}): Promise<PDU> {
  return new Promise((resolve) => session.send(new PDU(command, options), resolve));
}

async function bound(smsc: RunningSmscSimulator, command = 'bind_transceiver', credentials = { system_id: 'esme', password: 'pw' }): Promise<Session> {
  const session = await open(smsc);
  const response = await request(session, command, credentials);
  expect(response.command_status).toBe(0);
  return session;
}

function http(smsc: RunningSmscSimulator, path: string, method = 'GET'): Promise<Response> {
  return fetch(`http://${smsc.host}:${smsc.httpPort}${path}`, { method });
}

async function json<T>(smsc: RunningSmscSimulator, path: string): Promise<T> {
  const response = await http(smsc, path);
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

function receipts(session: Session): PDU[] {
  const received: PDU[] = [];
  session.on('deliver_sm', (pdu: PDU) => {
    received.push(pdu);
    session.send(pdu.response());
  });
  return received;
}

async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('SMSC simulator', () => {
  it('shows a Latin-1 text to a number given with + and an unescaped + in the query', async () => {
    const smsc = await simulator();
    const session = await bound(smsc);
    const response = await request(session, 'submit_sm', {
      source_addr_ton: 1,
      source_addr: '15550001111',
      destination_addr: '+447700900201',
      data_coding: 3,
      short_message: Buffer.from('Café à 5 euros, ñ ü ß', 'latin1'),
    });
    expect(response).toMatchObject({ command_status: 0, message_id: expect.any(String) });
    const messages = await json<unknown[]>(smsc, '/messages?to=+447700900201');
    expect(messages).toEqual([
      {
        message_id: response['message_id'],
        from: '+15550001111',
        to: '+447700900201',
        text: 'Café à 5 euros, ñ ü ß',
        parts: 1,
        received_at: expect.any(String),
      },
    ]);
    expect(await json<unknown[]>(smsc, '/messages?to=%2B447700900999')).toEqual([]);
    expect(await json<unknown[]>(smsc, '/messages')).toHaveLength(1);
  });

  it('joins parts with 16-bit references and message_payload, oldest message first', async () => {
    const smsc = await simulator();
    const session = await bound(smsc);
    const to = '447700900202';
    await request(session, 'submit_sm', { destination_addr: to, data_coding: 0, short_message: Buffer.from('first') });
    const part = (sequence: number, text: string): Promise<PDU> =>
      request(session, 'submit_sm', {
        destination_addr: to,
        esm_class: 0x40,
        data_coding: 0,
        short_message: Buffer.alloc(0),
        message_payload: Buffer.concat([Buffer.from([0x06, 0x08, 0x04, 0xbe, 0xef, 0x02, sequence]), Buffer.from(text, 'latin1')]),
      });
    await part(2, 'world');
    expect(await json<unknown[]>(smsc, `/messages?to=%2B${to}`)).toHaveLength(1);
    const first = await part(1, 'hello ');
    expect(await json<unknown[]>(smsc, `/messages?to=%2B${to}`)).toEqual([
      expect.objectContaining({ text: 'first', parts: 1 }),
      expect.objectContaining({ message_id: first['message_id'], text: 'hello world', parts: 2 }),
    ]);
  });

  it('sends a receipt per part to a receiver bind of the same system_id, keeping it until one binds', async () => {
    const smsc = await simulator();
    const transmitter = await bound(smsc, 'bind_transmitter');
    const response = await request(transmitter, 'submit_sm', {
      source_addr_ton: 5,
      source_addr: 'Acme',
      destination_addr: '447700900203',
      registered_delivery: 1,
      data_coding: 0,
      short_message: Buffer.from('Your code is 654321. Do not share it.'),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(smsc.stats().receipts_sent).toBe(0); // nobody to send it to yet
    const receiver = await open(smsc);
    const received = receipts(receiver);
    expect((await request(receiver, 'bind_receiver', { system_id: 'esme', password: 'x' })).command_status).toBe(0);
    await eventually(() => received.length > 0);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({
      source_addr: '447700900203',
      destination_addr: 'Acme',
      esm_class: 4,
      receipted_message_id: response['message_id'],
      message_state: 2,
      short_message: {
        message: expect.stringMatching(
          new RegExp(
            `^id:${String(response['message_id'])} sub:001 dlvrd:001 submit date:\\d{10} done date:\\d{10} stat:DELIVRD err:000 text:Your code is 654321\\.$`,
          ),
        ),
      },
    });
    expect((await request(receiver, 'submit_sm', { destination_addr: '447700900203', short_message: Buffer.from('x') })).command_status).toBe(0x04);
  });

  it('sends a receipt again when its deliver_sm_resp is overdue or refuses it, and not once it is acknowledged', async () => {
    const smsc = await simulator({ receiptAckTimeoutMs: 300 });
    const session = await bound(smsc);
    const received: PDU[] = [];
    let answer: 'none' | 'refuse' | 'ok' = 'none';
    session.on('deliver_sm', (pdu: PDU) => {
      received.push(pdu);
      if (answer === 'refuse') session.send(pdu.response({ command_status: 0x64 })); // ESME_RX_T_APPN
      if (answer === 'ok') session.send(pdu.response());
    });
    const response = await request(session, 'submit_sm', { destination_addr: '447700900204', registered_delivery: 1, short_message: Buffer.from('again') });
    await eventually(() => received.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(received).toHaveLength(1); // not before its timeout
    answer = 'refuse';
    await eventually(() => received.length === 2, 2_000);
    answer = 'ok';
    await eventually(() => received.length === 3, 3_000);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(received).toHaveLength(3);
    expect(received.map((pdu) => pdu['receipted_message_id'])).toEqual([response['message_id'], response['message_id'], response['message_id']]);
    expect(smsc.stats().receipts_sent).toBe(3);
  });

  it('checks credentials when configured', async () => {
    const smsc = await simulator({ systemId: 'esme', password: 'right' });
    expect((await request(await open(smsc), 'bind_transceiver', { system_id: 'other', password: 'right' })).command_status).toBe(0x0f);
    expect((await request(await open(smsc), 'bind_transceiver', { system_id: 'esme', password: 'wrong' })).command_status).toBe(0x0e);
    await bound(smsc, 'bind_transceiver', { system_id: 'esme', password: 'right' });
    expect(smsc.stats().binds).toBe(1);
  });

  it('answers enquire_link, unbind, a second bind, a submit before binding and an unknown command', async () => {
    const smsc = await simulator();
    const unbound = await open(smsc);
    expect((await request(unbound, 'enquire_link')).command_status).toBe(0);
    expect((await request(unbound, 'submit_sm', { destination_addr: '447700900204', short_message: Buffer.from('x') })).command_status).toBe(0x04);
    const session = await bound(smsc);
    expect((await request(session, 'bind_transceiver', { system_id: 'esme' })).command_status).toBe(0x05);
    expect(await request(session, 'query_sm', { message_id: '1' })).toMatchObject({ command: 'generic_nack', command_status: 0x03 });
    const closed = new Promise<void>((resolve) => session.once('close', resolve));
    expect((await request(session, 'unbind')).command).toBe('unbind_resp');
    await closed;
  });

  it('answers generic_nack to a PDU with an impossible length and closes the connection', async () => {
    const smsc = await simulator();
    const socket = connectTcp(smsc.smppPort, smsc.host);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    socket.write(Buffer.from([0, 0, 0, 8, 0, 0, 0, 0x15, 0, 0, 0, 0, 0, 0, 0, 1]));
    await new Promise<void>((resolve) => socket.once('close', resolve));
    const reply = Buffer.concat(received);
    expect(reply.readUInt32BE(4)).toBe(0x80000000);
    expect(reply.readUInt32BE(8)).toBe(0x02);
  });

  it('refuses bad destinations, data codings and UDHs, counting them as rejected', async () => {
    const smsc = await simulator();
    const session = await bound(smsc);
    const status = async (options: Record<string, unknown>): Promise<number> =>
      (await request(session, 'submit_sm', { destination_addr: '447700900205', short_message: Buffer.from('x'), ...options })).command_status;
    expect(await status({ destination_addr: 'not-a-number' })).toBe(0x0b);
    expect(await status({ data_coding: 4 })).toBe(0x104);
    expect(await status({ esm_class: 0x40, short_message: Buffer.from([0x09, 0x00]) })).toBe(0x01);
    expect(smsc.stats()).toMatchObject({ submits: 3, rejected: 3, accepted: 0 });
  });

  it('serves health, stats, DELETE /messages, and JSON errors', async () => {
    const smsc = await simulator();
    const session = await bound(smsc);
    await request(session, 'submit_sm', { destination_addr: '447700900206', short_message: Buffer.from('x'), user_message_reference: 1 });
    for (const path of ['/health', '/health/live', '/health/ready']) expect((await http(smsc, path)).status).toBe(200);
    expect(await json(smsc, '/stats')).toEqual({
      submits: 1,
      accepted: 1,
      duplicates_dropped: 0,
      throttled: 0,
      rejected: 0,
      receipts_sent: 0,
      mo_parts_sent: 0,
      binds: 1,
      binds_refused: 0,
      max_outstanding: 1,
    });
    const deleted = await http(smsc, '/messages', 'DELETE');
    expect(await deleted.json()).toEqual({ deleted: 1 });
    expect(await json(smsc, '/messages')).toEqual([]);
    // the duplicate filter outlives DELETE /messages
    await request(session, 'submit_sm', { destination_addr: '447700900206', short_message: Buffer.from('x'), user_message_reference: 1 });
    expect(smsc.stats().duplicates_dropped).toBe(1);
    expect(await json(smsc, '/messages')).toEqual([]);

    expect((await http(smsc, '/messages?to=abc')).status).toBe(400);
    expect((await http(smsc, '/nope')).status).toBe(404);
    const wrongMethod = await http(smsc, '/messages', 'POST');
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({ error: expect.stringContaining('GET, DELETE') });
  });

  it('drops every bind on POST /binds/drop and refuses binds with ESME_RBINDFAIL until refuse_ms has passed', async () => {
    const smsc = await simulator();
    const session = await bound(smsc);
    const closed = new Promise<void>((resolve) => session.once('close', resolve));
    const drop = await http(smsc, '/binds/drop?refuse_ms=300', 'POST');
    expect(await drop.json()).toEqual({ dropped: 1, refuse_ms: 300 });
    await closed;
    expect((await request(await open(smsc), 'bind_transceiver', { system_id: 'esme', password: 'pw' })).command_status).toBe(0x0d);
    expect(smsc.stats()).toMatchObject({ binds: 1, binds_refused: 1 });
    await new Promise((resolve) => setTimeout(resolve, 350));
    await bound(smsc);
    expect(smsc.stats()).toMatchObject({ binds: 2, binds_refused: 1 });
    expect((await http(smsc, '/binds/drop?refuse_ms=soon', 'POST')).status).toBe(400);
    expect((await http(smsc, '/binds/drop')).status).toBe(405);
  });
});
