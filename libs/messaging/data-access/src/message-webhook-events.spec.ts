import { buildMessageEvent, eventTypeFor } from './message-webhook-events';

const message = { id: '6f1c2a56-0000-4000-8000-000000000001', recipient: '+33612345678', reference: 'order-42', errorCode: null, parts: 2 };
const at = '2026-01-02T03:04:05.678Z';

describe('eventTypeFor', () => {
  it.each([
    ['sent', 'message.sent'],
    ['delivered', 'message.delivered'],
    ['undelivered', 'message.failed'],
    ['expired', 'message.failed'],
    ['rejected', 'message.failed'],
    ['failed', 'message.failed'],
  ])('maps %s to %s', (status, type) => {
    expect(eventTypeFor(status)).toBe(type);
  });

  it.each(['queued', 'scheduled', 'cancelled', 'toString', ''])('has no event for %p', (status) => {
    expect(eventTypeFor(status)).toBeUndefined();
  });
});

describe('buildMessageEvent', () => {
  it('describes a sent or delivered message without failure fields', () => {
    expect(buildMessageEvent({ status: 'delivered', occurredAt: at }, message)).toEqual({
      type: 'message.delivered',
      timestamp: at,
      data: { message_id: message.id, to: '+33612345678', status: 'delivered', reference: 'order-42', parts: 2 },
    });
    expect(buildMessageEvent({ status: 'sent', occurredAt: at }, { ...message, reference: null }).data).toEqual({
      message_id: message.id,
      to: '+33612345678',
      status: 'sent',
      reference: null,
      parts: 2,
    });
  });

  it.each(['undelivered', 'expired', 'rejected', 'failed'] as const)('reports %s as message.failed with that reason', (status) => {
    const event = buildMessageEvent({ status, occurredAt: at }, { ...message, errorCode: '001' });
    expect(event.type).toBe('message.failed');
    expect(event.data).toMatchObject({ status, reason: status, error_code: '001' });
  });

  it('gives a failure without a carrier code error_code null', () => {
    expect(buildMessageEvent({ status: 'failed', occurredAt: at }, message).data.error_code).toBeNull();
  });

  it('normalises the timestamp and refuses a status without an event', () => {
    expect(buildMessageEvent({ status: 'sent', occurredAt: '2026-01-02T04:04:05.678+01:00' }, message).timestamp).toBe(at);
    expect(() => buildMessageEvent({ status: 'queued' as never, occurredAt: at }, message)).toThrow(RangeError);
  });
});
