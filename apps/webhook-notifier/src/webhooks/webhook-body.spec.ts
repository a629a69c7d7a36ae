import { buildMessageEvent } from '@mp/messaging';
import { serializeEvent } from './webhook-body';

const message = { id: '6f1c2a56-0000-4000-8000-000000000001', recipient: '+33612345678', reference: 'order-42', errorCode: null, parts: 2 };
const at = '2026-01-02T03:04:05.678Z';

describe('serializeEvent', () => {
  it('writes the documented key order whatever order the stored payload has', () => {
    const stored = {
      data: { parts: 1, to: '+1', reason: 'failed', status: 'failed', message_id: 'm', error_code: 'x', reference: null },
      type: 'message.failed',
      timestamp: at,
    };
    expect(serializeEvent(stored)).toBe(
      `{"type":"message.failed","timestamp":"${at}","data":{"message_id":"m","to":"+1","status":"failed","reference":null,"error_code":"x","reason":"failed","parts":1}}`,
    );
  });

  it('keeps keys it does not know, after the known ones, alphabetically', () => {
    expect(serializeEvent({ zeta: [{ b: 1, a: 2 }], type: 't', alpha: true })).toBe('{"type":"t","alpha":true,"zeta":[{"a":2,"b":1}]}');
  });

  it('round-trips a built event', () => {
    const event = buildMessageEvent({ status: 'rejected', occurredAt: at }, message);
    expect(JSON.parse(serializeEvent(event))).toEqual(event);
  });
});
