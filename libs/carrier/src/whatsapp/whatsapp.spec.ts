import { createHmac } from 'node:crypto';
import { authenticationTemplateRequest } from './cloud-api-request';
import { receiptOfStatus, statusesOf, verifyHubSignature } from './status-webhook';

const settings = {
  baseUrl: 'http://127.0.0.1:2780/',
  version: 'v21.0',
  phoneNumberId: '1055',
  accessToken: 'token-1',
  templateName: 'otp_authentication',
  timeoutMs: 5_000,
};

describe('authenticationTemplateRequest', () => {
  it('sends the code as the template body parameter and the copy-code button, to the number without +', () => {
    const { url, init } = authenticationTemplateRequest(settings, { to: '+33612345678', code: '482910', language: 'en' });
    expect(url).toBe('http://127.0.0.1:2780/v21.0/1055/messages');
    expect(init.headers).toEqual({ authorization: 'Bearer token-1', 'content-type': 'application/json' });
    expect(JSON.parse(init.body as string)).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '33612345678',
      type: 'template',
      template: {
        name: 'otp_authentication',
        language: { code: 'en' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '482910' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482910' }] },
        ],
      },
    });
  });
});

describe('status webhooks', () => {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: 'waba',
        changes: [
          {
            field: 'messages',
            value: {
              statuses: [
                { id: 'wamid.A', status: 'delivered', timestamp: '1763800000', recipient_id: '33612345678' },
                { id: 'wamid.B', status: 'failed', timestamp: '1763800001', errors: [{ code: 131026, title: 'Message undeliverable' }] },
                { id: 'wamid.C', status: 'sent', timestamp: '1763800002' },
              ],
            },
          },
          { field: 'messages', value: { messages: [{ from: '33612345678', text: { body: 'hi' } }] } },
        ],
      },
    ],
  });

  it('verifies X-Hub-Signature-256 over the exact body with the app secret', () => {
    const signature = `sha256=${createHmac('sha256', 'secret').update(body).digest('hex')}`;
    expect(verifyHubSignature('secret', body, signature)).toBe(true);
    expect(verifyHubSignature('other', body, signature)).toBe(false);
    expect(verifyHubSignature('secret', `${body} `, signature)).toBe(false);
    expect(verifyHubSignature('secret', body, undefined)).toBe(false);
    expect(verifyHubSignature('secret', body, 'sha256=zz')).toBe(false);
  });

  it('reads every status, ignores inbound messages, and maps final ones to carrier receipts', () => {
    const statuses = statusesOf(JSON.parse(body));
    expect(statuses.map((s) => [s.messageId, s.status, s.errorCode])).toEqual([
      ['wamid.A', 'delivered', null],
      ['wamid.B', 'failed', '131026'],
      ['wamid.C', 'sent', null],
    ]);
    expect(statuses.map(receiptOfStatus)).toEqual([
      { carrierMessageId: 'wamid.A', stat: 'DELIVRD', err: '000', doneAt: new Date(1763800000 * 1000) },
      { carrierMessageId: 'wamid.B', stat: 'UNDELIV', err: 'wa:131026', doneAt: new Date(1763800001 * 1000) },
      null,
    ]);
    expect(statusesOf({ nothing: true })).toEqual([]);
    expect(statusesOf(null)).toEqual([]);
  });

  it('skips, item by item, whatever is not of the documented shape', () => {
    const status = { id: 'wamid.A', status: 'delivered', timestamp: '1763800000' };
    const wrap = (statuses: unknown) => ({ entry: [{ changes: [{ field: 'messages', value: { statuses } }] }] });
    for (const odd of [
      { entry: [null] },
      { entry: 'x' },
      { entry: [{ changes: 'x' }] },
      { entry: [{ changes: [null, 7] }] },
      { entry: [{ changes: [{ field: 'messages', value: null }] }] },
      wrap('x'),
      wrap([null, 1, 'x', [], { id: 5, status: 'delivered' }, { id: '', status: 'delivered' }]),
    ]) {
      expect(statusesOf(odd)).toEqual([]);
    }
    expect(statusesOf(wrap([null, status]))).toHaveLength(1);
    expect(statusesOf(wrap([{ ...status, errors: 'x' }]))[0].errorCode).toBeNull();
    expect(statusesOf(wrap([{ ...status, errors: [null] }]))[0].errorCode).toBeNull();
    expect(statusesOf(wrap([{ ...status, errors: [{ code: { nested: true } }] }]))[0].errorCode).toBeNull();
  });

  it('keeps only a timestamp that could be real', () => {
    const at = (timestamp: unknown) =>
      statusesOf({ entry: [{ changes: [{ field: 'messages', value: { statuses: [{ id: 'wamid.A', status: 'read', timestamp }] } }] }] })[0].timestamp;
    expect(at('1763800000')).toEqual(new Date(1763800000 * 1000));
    for (const odd of ['17638000000000', 99999999999999, '-1', '1e20', 'x', null, 1763800000.5]) expect(at(odd)).toBeNull();
  });
});
