import { DEFAULT_PRICES } from '@mp/billing-domain';
import { PlatformMetrics } from '@mp/metrics';
import {
  NoPriceError,
  SendNotAffordableError,
  type MessageCancellationService,
  type MessageViews,
  type SmsAcceptance,
  type SmsAcceptanceService,
  type SmsSendCommand,
  type SuppressionCheck,
} from '@mp/messaging';
import { INVALID_PHONE_NUMBER } from '@mp/messaging-domain';
import { QueueName } from '@mp/queue-contracts';
import type { OutboxRelay } from '@mp/queue-runtime';
import { GatewayEnv } from '../gateway.env';
import type { PriceBook } from '../pricing/price-book.service';
import { refusal } from '../testing/api-refusal';
import type { SenderPolicy } from '../senders/sender-policy.service';
import type { StatusCallbacks } from '../senders/status-callbacks.service';
import { SmsService } from './sms.service';

const COMPANY = 'company-1';

/** What the service asks the acceptance to do, answered as the group commit would. */
function fakeAcceptance(answer: (command: SmsSendCommand) => SmsAcceptance | Error) {
  const commands: SmsSendCommand[] = [];
  const acceptance = {
    accept: async (command: SmsSendCommand) => {
      commands.push(command);
      const result = answer(command);
      if (result instanceof Error) throw result;
      return result;
    },
    idle: async () => undefined,
  } as unknown as SmsAcceptanceService;
  return { acceptance, commands };
}

const accepted = (command: SmsSendCommand): SmsAcceptance => ({
  requestId: 'request-1',
  encoding: 'GSM-7',
  messages: command.recipients.map((to, i) => ({ messageId: `m-${i}`, to, parts: 1, cost: 100n })),
  totalCost: 100n * BigInt(command.recipients.length),
  balance: 9_900n,
  status: command.scheduledAt ? 'scheduled' : 'queued',
});

function service(
  options: { acceptance?: SmsAcceptanceService; cancellation?: Partial<MessageCancellationService>; views?: Partial<MessageViews>; optedOut?: string[] } = {},
) {
  const suppression = {
    suppressed: async (_company: string, _sender: string, phones: readonly string[]) => new Set(phones.filter((p) => options.optedOut?.includes(p))),
  } as unknown as SuppressionCheck;
  const removed: [string, string][] = [];
  const relay = { removeJob: async (queue: string, jobId: string) => void removed.push([queue, jobId]) } as unknown as OutboxRelay;
  const priceBook = { rules: async () => DEFAULT_PRICES } as unknown as PriceBook;
  const sms = new SmsService(
    options.acceptance ?? fakeAcceptance(accepted).acceptance,
    (options.cancellation ?? {}) as MessageCancellationService,
    (options.views ?? { find: async () => null }) as MessageViews,
    priceBook,
    relay,
    new GatewayEnv(),
    suppression,
    new PlatformMetrics('gateway', { defaultMetrics: false }),
    { check: async () => undefined } as unknown as SenderPolicy,
    { addressFor: async (_: string, url: string | null) => url } as unknown as StatusCallbacks,
  );
  return { sms, removed };
}

describe('SmsService', () => {
  it('refuses a single recipient who opted out with 403, charging nothing', async () => {
    const { acceptance, commands } = fakeAcceptance(accepted);
    const { sms } = service({ acceptance, optedOut: ['+447911123456'] });
    expect(await refusal(sms.send(COMPANY, { to: '+447911123456', message: 'Hello' }))).toMatchObject({
      status: 403,
      body: { error: 'Recipient has opted out' },
    });
    expect(commands).toEqual([]);
  });

  it('lists an opted-out recipient of several as failed and sends to the others', async () => {
    const { acceptance, commands } = fakeAcceptance(accepted);
    const answer = await service({ acceptance, optedOut: ['+447911123457'] }).sms.send(COMPANY, { to: '+447911123456, +447911123457', message: 'Hi' });
    expect(commands[0].recipients).toEqual(['+447911123456']);
    expect(answer.data).toMatchObject({ successful: 1, failed: 1 });
    expect(answer.data).toHaveProperty(
      'messages',
      expect.arrayContaining([{ message_id: null, to: '+447911123457', status: 'failed', cost: 0, error: 'Recipient has opted out' }]),
    );
  });

  it('accepts one recipient with the resolved request and answers the single-recipient shape', async () => {
    const { acceptance, commands } = fakeAcceptance(accepted);
    const { sms } = service({ acceptance });
    const answer = await sms.send(COMPANY, { to: '+447911123456', message: 'Hello', from: 'Acme' });
    expect(commands).toEqual([
      { companyId: COMPANY, sender: 'Acme', route: 'auto', body: 'Hello', recipients: ['+447911123456'], reference: null, webhookUrl: null, scheduledAt: null },
    ]);
    expect(answer).toMatchObject({ message: 'SMS sent successfully', data: { message_id: 'm-0', cost: 0.01, balance: 0.99, status: 'sent' } });
  });

  it('sends to the valid numbers of a list and reports the invalid ones as failed', async () => {
    const { acceptance, commands } = fakeAcceptance(accepted);
    const answer = await service({ acceptance }).sms.send(COMPANY, { to: '+447911123456, 12, +447911123457', message: 'Hi' });
    expect(commands[0].recipients).toEqual(['+447911123456', '+447911123457']);
    expect(answer.data).toMatchObject({ total_recipients: 3, successful: 2, failed: 1 });
  });

  it('refuses a request without a valid number, or with too many, before anything is accepted', async () => {
    const { acceptance, commands } = fakeAcceptance(accepted);
    const { sms } = service({ acceptance });
    expect(await refusal(sms.send(COMPANY, { to: '12', message: 'Hi' }))).toEqual({ status: 400, body: { error: INVALID_PHONE_NUMBER } });
    const many = Array.from({ length: 1001 }, (_, i) => `+4479111${String(i).padStart(5, '0')}`).join(',');
    expect(await refusal(sms.send(COMPANY, { to: many, message: 'Hi' }))).toMatchObject({
      status: 400,
      body: { error: expect.stringContaining('POST /sms/send-bulk') },
    });
    expect(await refusal(sms.send(COMPANY, { message: 'Hi' }))).toEqual({ status: 400, body: { error: 'to is required' } });
    expect(commands).toEqual([]);
  });

  it('answers 402 with the balance and cost when the balance does not cover the send, 400 when no price applies', async () => {
    const poor = service({ acceptance: fakeAcceptance(() => new SendNotAffordableError(50n, 100n)).acceptance });
    expect(await refusal(poor.sms.send(COMPANY, { to: '+447911123456', message: 'Hi' }))).toEqual({
      status: 402,
      body: { error: 'Insufficient balance', balance: 0.005, cost: 0.01 },
    });
    const unpriced = service({ acceptance: fakeAcceptance(() => new NoPriceError('+447911123456', 'premium')).acceptance });
    expect(await refusal(unpriced.sms.send(COMPANY, { to: '+447911123456', message: 'Hi' }))).toMatchObject({ status: 400 });
  });

  it('answers 404 for a message the company does not have, and a scheduled message cancelled with its job removed', async () => {
    const { sms, removed } = service({
      views: { find: async (_company: string, id: string) => (id === 'm-1' ? ({ message_id: 'm-1' } as never) : null) },
      cancellation: { cancel: async () => ({ outcome: 'cancelled', refunded: 100n, balance: 1_000n }) },
    });
    expect(await refusal(sms.find(COMPANY, 'other'))).toEqual({ status: 404, body: { error: 'Message not found' } });
    expect(await refusal(sms.cancel(COMPANY, 'other'))).toEqual({ status: 404, body: { error: 'Message not found' } });
    expect(await sms.cancel(COMPANY, 'm-1')).toEqual({
      status: 'success',
      message: 'Scheduled message cancelled and refunded',
      data: { message_id: 'm-1', status: 'cancelled', refunded: 0.01, balance: 0.1 },
    });
    expect(removed).toEqual([[QueueName.SmsDispatch, 'sms-m-1']]);
  });

  it('answers 409 with the status of a message that is no longer scheduled, and removes no job', async () => {
    const { sms, removed } = service({
      views: { find: async () => ({ message_id: 'm-1' }) as never },
      cancellation: { cancel: async () => ({ outcome: 'not-cancellable', status: 'sent' }) },
    });
    expect(await refusal(sms.cancel(COMPANY, 'm-1'))).toEqual({
      status: 409,
      body: { error: 'Only a scheduled message can be cancelled; this one is sent', status: 'sent' },
    });
    expect(removed).toEqual([]);
  });
});
