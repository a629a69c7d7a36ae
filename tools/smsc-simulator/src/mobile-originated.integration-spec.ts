// POST /mo: the simulated handset sends a message over SMPP to a bound SmppConnection of the
// carrier lib, which reads it with the messaging domain's reader, as the sms-dispatcher does.
import { SMPP_CONNECTION_DEFAULTS, SmppConnection, TrafficPolicy, type MobileOriginatedPdu } from '@mp/carrier';
import { joinInboundParts, readInboundPart } from '@mp/messaging-domain';
import { eventually } from '@mp/testing';
import { type RunningSmscSimulator, startSmscSimulator } from './simulator';

let smsc: RunningSmscSimulator;
let carrier: SmppConnection;
let received: MobileOriginatedPdu[];
let refuseNext = 0;

beforeEach(async () => {
  smsc = await startSmscSimulator({ smppPort: 0, httpPort: 0, receiptAckTimeoutMs: 500 });
  carrier = new SmppConnection({
    ...SMPP_CONNECTION_DEFAULTS,
    host: smsc.host,
    port: smsc.smppPort,
    systemId: 'mo-test',
    password: 'secret',
    responseTimeoutMs: 2_000,
    reconnect: { initialDelayMs: 50, maxDelayMs: 200 },
    traffic: new TrafficPolicy(),
  });
  received = [];
  refuseNext = 0;
  carrier.onMobileOriginated((message) => {
    if (refuseNext > 0) {
      refuseNext -= 1;
      throw new Error('could not store it');
    }
    received.push(message);
  });
  await carrier.connect();
});

afterEach(async () => {
  await carrier.close();
  await smsc.stop();
});

async function postMo(body: object): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`http://${smsc.host}:${smsc.httpPort}/mo`, { method: 'POST', body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

function textOf(parts: MobileOriginatedPdu[]): string | null {
  const read = parts.map(readInboundPart);
  const total = read[0].concatenation?.total ?? 1;
  return total === 1
    ? read[0].text
    : joinInboundParts(
        total,
        read.map((part) => ({ index: part.concatenation?.index ?? 0, text: part.text })),
      );
}

describe('POST /mo (the simulator as a handset)', () => {
  it('sends a short text as one deliver_sm that is not a receipt', async () => {
    const answer = await postMo({ from: '+447700900555', to: '+447400900123', text: 'STOP' });
    expect(answer).toEqual({ status: 200, body: { parts: 1, message_ids: [expect.stringMatching(/^[0-9a-f]{16}$/)], sent: true } });
    await eventually(
      () => received.length,
      (count) => count >= 1,
    );
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ source: '+447700900555', destination: '+447400900123', esmClass: 0, dataCoding: 0, sar: null });
    expect(textOf(received)).toBe('STOP');
  });

  it('splits a long UCS-2 text into 67-character parts with a concatenation UDH', async () => {
    const text = 'Здравствуйте! '.repeat(14); // 196 characters: three parts
    const answer = await postMo({ from: '+447700900556', to: '+447400900123', text });
    expect(answer.body).toMatchObject({ parts: 3, sent: true });
    await eventually(
      () => received.length,
      (count) => count >= 3,
    );
    expect(received).toHaveLength(3);
    expect(received.every((part) => part.esmClass === 0x40 && part.dataCoding === 8)).toBe(true);
    expect(textOf(received)).toBe(text);
  });

  it('uses SAR TLVs instead when asked', async () => {
    const text = 'x'.repeat(200); // GSM-7: 153 + 47
    expect((await postMo({ from: '+447700900557', to: '+447400900123', text, concat: 'sar' })).body).toMatchObject({ parts: 2 });
    await eventually(
      () => received.length,
      (count) => count >= 2,
    );
    expect(received).toHaveLength(2);
    expect(received.map((part) => [part.esmClass, part.sar?.total, part.sar?.sequence])).toEqual([
      [0, 2, 1],
      [0, 2, 2],
    ]);
    expect(textOf(received)).toBe(text);
  });

  it('sends a part again when the platform answers it with an error', async () => {
    refuseNext = 1;
    await postMo({ from: '+447700900558', to: '+447400900123', text: 'HELP' });
    await eventually(
      () => received.length,
      (count) => count >= 1,
      5_000,
    );
    expect(received).toHaveLength(1);
    expect(smsc.stats().mo_parts_sent).toBe(2);
  });

  it('writes the destination as an SMSC that does not say international does, when to_ton is given', async () => {
    expect((await postMo({ from: '+447700900560', to: '+447400900123', text: 'bare', to_ton: 0 })).status).toBe(200);
    expect((await postMo({ from: '+447700900560', to: '1234567', text: 'short', to_ton: 3 })).status).toBe(200);
    expect((await postMo({ from: '+447700900560', to: '447400900123', text: 'plus', to_ton: 1 })).status).toBe(200);
    await eventually(
      () => received.length,
      (count) => count >= 3,
    );
    expect(received.map((message) => [message.destination, textOf([message])])).toEqual([
      ['447400900123', 'bare'],
      ['1234567', 'short'],
      ['+447400900123', 'plus'],
    ]);
    expect((await postMo({ from: '+447700900560', to: '+447400900123', text: 'x', to_ton: 7 })).body).toEqual({
      error: 'to_ton must be an integer from 0 to 6',
    });
  });

  it('answers 400 to a body it cannot send', async () => {
    expect(await postMo({ from: 'nobody', to: '+447400900123', text: 'x' })).toEqual({ status: 400, body: { error: expect.stringMatching(/^from must be/) } });
    expect((await postMo({ from: '+447700900559', to: '+447400900123', text: '' })).status).toBe(400);
    expect((await postMo({ from: '+447700900559', to: '+447400900123', text: 'x', concat: 'other' })).status).toBe(400);
  });
});
