import { resolveBulkRequest } from './sms-bulk-request';

const now = new Date('2026-11-22T10:00:00Z');
const mode1 = { recipients: ['+447911123456'], message: 'Hi', from: 'Acme' };
const mode2 = { messages: [{ to: '+447911123456', message: 'Hi' }], from: 'Acme' };

describe('resolveBulkRequest', () => {
  it('reads mode 1 and mode 2 with their defaults', () => {
    expect(resolveBulkRequest(mode1, { now })).toMatchObject({
      ok: true,
      value: {
        input: { mode: 1 },
        sender: 'Acme',
        batchSize: 1000,
        delayBetweenBatchesS: 0,
        priority: 'normal',
        reference: null,
        scheduledAt: null,
        webhookUrl: null,
      },
    });
    expect(resolveBulkRequest(mode2, { now })).toMatchObject({
      ok: true,
      value: { input: { mode: 2, messages: [{ to: '+447911123456', message: 'Hi', reference: null, from: null }] } },
    });
  });

  it('refuses a field it does not know, as /sms/send does: a typo must not send at once', () => {
    expect(resolveBulkRequest({ ...mode1, schedule_time: '2026-11-23T10:00:00Z' }, { now })).toEqual({
      ok: false,
      error: 'schedule_time is not a known field',
    });
    expect(resolveBulkRequest({ ...mode2, messages: [{ to: '+447911123456', message: 'Hi', referense: 'x' }] }, { now })).toEqual({
      ok: false,
      error: 'messages[0].referense is not a known field',
    });
  });

  it('counts a field given as null as not given', () => {
    const nulls = { reference: null, scheduled_time: null, webhook_url: null, batch_size: null, priority: null, delay_between_batches: null, messages: null };
    expect(resolveBulkRequest({ ...mode1, ...nulls }, { now })).toMatchObject({ ok: true, value: { input: { mode: 1 }, batchSize: 1000, priority: 'normal' } });
    expect(resolveBulkRequest({ ...mode1, from: null }, { now })).toEqual({ ok: false, error: 'from is required' });
    expect(resolveBulkRequest({ ...mode1, recipients: null }, { now })).toEqual({ ok: false, error: 'recipients is required (or messages)' });
    expect(resolveBulkRequest({ ...mode2, messages: [{ to: '+447911123456', message: 'Hi', reference: null, from: null }] }, { now })).toMatchObject({
      ok: true,
    });
  });

  it('refuses options of the wrong type rather than ignoring them', () => {
    expect(resolveBulkRequest({ ...mode1, scheduled_time: 1764410400 }, { now })).toEqual({ ok: false, error: 'scheduled_time must be an ISO 8601 timestamp' });
    expect(resolveBulkRequest({ ...mode1, webhook_url: ['https://example.com'] }, { now })).toEqual({ ok: false, error: 'webhook_url must be an http(s) URL' });
    expect(resolveBulkRequest({ ...mode2, messages: [['+447911123456', 'Hi']] }, { now })).toEqual({
      ok: false,
      error: 'messages[0] must be an object with to and message',
    });
  });

  it('refuses a webhook_url that names a forbidden address literally, unless the operator allows it', () => {
    const loopback = { ...mode1, webhook_url: 'http://127.0.0.1:8080/hooks' };
    expect(resolveBulkRequest(loopback, { now })).toEqual({
      ok: false,
      error: expect.stringMatching(/^webhook_url must be .*127\.0\.0\.1 is a loopback address/),
    });
    expect(
      resolveBulkRequest({ ...mode1, webhook_url: 'http://169.254.169.254/' }, { now, webhookPolicy: { allowLoopback: true, allowPrivate: true } }),
    ).toMatchObject({ ok: false });
    expect(resolveBulkRequest(loopback, { now, webhookPolicy: { allowLoopback: true, allowPrivate: false } })).toMatchObject({
      ok: true,
      value: { webhookUrl: 'http://127.0.0.1:8080/hooks' },
    });
  });
});
