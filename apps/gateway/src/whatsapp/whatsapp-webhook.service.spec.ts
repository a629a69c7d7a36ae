import { createHmac } from 'node:crypto';
import type { CarrierReceipt, DispatchResult, DispatchStore } from '@mp/messaging';
import type { OutboxJob, OutboxRelay } from '@mp/queue-runtime';
import { GatewayEnv } from '../gateway.env';
import { refusal } from '../testing/api-refusal';
import { WhatsAppWebhookService } from './whatsapp-webhook.service';

const config = Object.assign(new GatewayEnv(), { WHATSAPP_VERIFY_TOKEN: 'verify-me', WHATSAPP_APP_SECRET: 'app-secret' });
const job: OutboxJob = { queue: 'delivery.events', jobName: 'message.status', jobId: 'j-1', data: {}, notBefore: new Date(0), priority: null };

function service(result: DispatchResult) {
  const applied: CarrierReceipt[][] = [];
  const relayed: [readonly string[], readonly OutboxJob[]][] = [];
  const store = { applyReceipts: async (receipts: CarrierReceipt[]) => (applied.push(receipts), result) } as unknown as DispatchStore;
  const relay = { relay: async (ids: readonly string[], jobs: readonly OutboxJob[]) => (relayed.push([ids, jobs]), true) } as unknown as OutboxRelay;
  return { webhooks: new WhatsAppWebhookService(store, relay, config), applied, relayed };
}

const statuses = (...items: unknown[]) => ({ entry: [{ changes: [{ field: 'messages', value: { statuses: items } }] }] });
const signed = (raw: string) => `sha256=${createHmac('sha256', 'app-secret').update(raw).digest('hex')}`;

describe('WhatsAppWebhookService', () => {
  it('echoes the challenge of a subscription with our verify token, and refuses any other (403)', async () => {
    const { webhooks } = service({ transitions: [], outbox: { ids: [], jobs: [] } });
    expect(webhooks.handshake('subscribe', 'verify-me', 'challenge-1')).toBe('challenge-1');
    expect(await refusal(Promise.resolve().then(() => webhooks.handshake('subscribe', 'wrong', 'challenge-1')))).toEqual({
      status: 403,
      body: { error: 'Verification failed' },
    });
    expect(await refusal(Promise.resolve().then(() => webhooks.handshake('unsubscribe', 'verify-me', 'challenge-1')))).toMatchObject({ status: 403 });
  });

  it('refuses a body without a valid signature (401), applying nothing', async () => {
    const { webhooks, applied } = service({ transitions: [], outbox: { ids: [], jobs: [] } });
    const body = statuses({ id: 'wamid.1', status: 'delivered', timestamp: '1764000000' });
    const raw = JSON.stringify(body);
    expect(await refusal(webhooks.receive(raw, 'sha256=' + '0'.repeat(64), body))).toEqual({ status: 401, body: { error: 'Invalid X-Hub-Signature-256' } });
    expect(await refusal(webhooks.receive(undefined, signed(raw), body))).toMatchObject({ status: 401 });
    expect(applied).toEqual([]);
  });

  it('applies delivered, read and failed statuses as receipts (sent ones change nothing) and relays the events they commit', async () => {
    const { webhooks, applied, relayed } = service({
      transitions: [{ messageId: 'm-1', status: 'delivered', webhookUrl: null }],
      outbox: { ids: ['7'], jobs: [job] },
    });
    const body = statuses(
      { id: 'wamid.1', status: 'delivered', timestamp: '1764000000' },
      { id: 'wamid.2', status: 'sent', timestamp: '1764000000' },
      { id: 'wamid.3', status: 'failed', timestamp: '1764000000', errors: [{ code: 131026 }] },
    );
    const raw = JSON.stringify(body);
    expect(await webhooks.receive(raw, signed(raw), body)).toEqual({ applied: 2 });
    expect(applied).toEqual([
      [
        { carrierMessageId: 'wamid.1', stat: 'DELIVRD', err: '000', doneAt: new Date(1_764_000_000_000) },
        { carrierMessageId: 'wamid.3', stat: 'UNDELIV', err: 'wa:131026', doneAt: new Date(1_764_000_000_000) },
      ],
    ]);
    expect(relayed).toEqual([[['7'], [job]]]);
  });

  it('answers a body with no status to apply without touching the store', async () => {
    const { webhooks, applied } = service({ transitions: [], outbox: { ids: [], jobs: [] } });
    const body = statuses({ id: 'wamid.2', status: 'sent' });
    const raw = JSON.stringify(body);
    expect(await webhooks.receive(raw, signed(raw), body)).toEqual({ applied: 0 });
    expect(applied).toEqual([]);
  });
});
