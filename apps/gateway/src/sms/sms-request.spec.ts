import { resolveSmsRequest } from './sms-request';

const now = new Date('2026-11-22T10:00:00Z');

describe('resolveSmsRequest', () => {
  it('applies defaults: from SMS, route auto, no schedule', () => {
    expect(resolveSmsRequest({ to: '+447911123456', message: 'Hi' }, { now })).toEqual({
      ok: true,
      value: { recipients: '+447911123456', message: 'Hi', sender: 'SMS', route: 'auto', scheduledAt: null, reference: null, webhookUrl: null },
    });
  });

  it.each([
    [{ phone: '+1', text: 'x' }, '+1', 'x'],
    [{ recipient: '+2', body: 'y' }, '+2', 'y'],
    [{ recipients: '+3;+4', message: 'z' }, '+3;+4', 'z'],
  ])('accepts the aliases %p', (dto, recipients, message) => {
    const resolved = resolveSmsRequest(dto, { now });
    expect(resolved.ok && resolved.value).toMatchObject({ recipients, message });
  });

  it('accepts sender aliases and checks the sender id', () => {
    const ok = resolveSmsRequest({ to: '+1', message: 'x', sender_id: 'Acme Co' }, { now });
    expect(ok.ok && ok.value.sender).toBe('Acme Co');
    expect(resolveSmsRequest({ to: '+1', message: 'x', from: 'TooLongSenderName' }, { now })).toMatchObject({
      ok: false,
      error: expect.stringContaining('from must be'),
    });
    expect(resolveSmsRequest({ to: '+1', message: 'x', from: '12345' }, { now })).toMatchObject({ ok: true });
  });

  it.each([
    [{ message: 'x' }, 'to is required'],
    [{ to: '  ', message: 'x' }, 'to is required'],
    [{ to: '+1' }, 'message is required'],
    [{ to: '+1', message: 'x'.repeat(1601) }, 'message must be at most 1600 characters'],
    [{ to: '+1', message: 'x', route: 'gold' }, 'route must be one of auto, standard, premium'],
    [{ to: '+1', message: 'x', route: 'whatsapp' }, 'route must be one of auto, standard, premium'],
    [{ to: '+1', message: 'x', scheduled_time: 'tomorrow' }, 'scheduled_time must be an ISO 8601 timestamp'],
    [{ to: '+1', message: 'x', scheduled_time: '2026-11-22T09:00:00Z' }, 'scheduled_time must be in the future'],
    [{ to: '+1', message: 'x', scheduled_time: '2027-01-22T09:00:00Z' }, 'scheduled_time must be at most 30 days ahead'],
    [{ to: '+1', message: 'x', webhook_url: 'ftp://x' }, 'webhook_url must be an http(s) URL'],
    [{ to: '+1', message: 'x', webhook_url: 'https://u:p@x.com' }, 'webhook_url must be an http(s) URL'],
    [
      { to: '+1', message: 'x', webhook_url: 'http://10.0.0.7/hooks' },
      'webhook_url must be an http(s) URL of a public address without credentials: 10.0.0.7 is a private address',
    ],
    [{ to: '+1', message: 'x', webhook_url: 'http://[::1]:8080/' }, '::1 is a loopback address'],
    [{ to: '+1', message: 'x', webhook_url: 'http://localhost/' }, 'localhost is a loopback address'],
  ])('refuses %p naming the field', (dto, error) => {
    expect(resolveSmsRequest(dto, { now })).toEqual({ ok: false, error: expect.stringContaining(error) });
  });

  it('counts the 1600-character limit in characters, not UTF-16 units', () => {
    expect(resolveSmsRequest({ to: '+1', message: '😀'.repeat(1600) }, { now }).ok).toBe(true);
  });

  it('keeps a valid schedule', () => {
    const resolved = resolveSmsRequest({ to: '+1', message: 'x', scheduled_time: '2026-11-23T10:00:00+01:00' }, { now });
    expect(resolved.ok && resolved.value.scheduledAt?.toISOString()).toBe('2026-11-23T09:00:00.000Z');
  });

  it('takes a webhook_url of a literal non-public address only where the operator allows it', () => {
    const dto = { to: '+1', message: 'x', webhook_url: 'http://127.0.0.1:9000/hooks' };
    expect(resolveSmsRequest(dto, { now }).ok).toBe(false);
    expect(resolveSmsRequest(dto, { now, webhookPolicy: { allowLoopback: true, allowPrivate: false } })).toMatchObject({
      ok: true,
      value: { webhookUrl: 'http://127.0.0.1:9000/hooks' },
    });
    expect(resolveSmsRequest({ ...dto, webhook_url: 'https://hooks.example.com/x' }, { now })).toMatchObject({
      ok: true,
      value: { webhookUrl: 'https://hooks.example.com/x' },
    });
  });
});
