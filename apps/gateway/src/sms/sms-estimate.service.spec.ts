import { DEFAULT_PRICES, type PriceRule } from '@mp/billing-domain';
import { HttpStatus } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import type { SuppressionCheck } from '@mp/messaging';
import { INVALID_PHONE_NUMBER, RECIPIENT_OPTED_OUT } from '@mp/messaging-domain';
import { GatewayEnv } from '../gateway.env';
import type { PriceBook } from '../pricing/price-book.service';
import type { SenderPolicy } from '../senders/sender-policy.service';
import { refusal } from '../testing/api-refusal';
import { SmsEstimateService } from './sms-estimate.service';

const COMPANY = 'company-1';

/** `optedOut`: the numbers on COMPANY's list for the sender `Shop` (the default sender's list is empty). */
const estimator = (rules: readonly PriceRule[] = DEFAULT_PRICES, optedOut: readonly string[] = []) => {
  const checks: [string, string, readonly string[]][] = [];
  const suppression = {
    suppressed: async (companyId: string, sender: string, phones: readonly string[]) => {
      checks.push([companyId, sender, phones]);
      return new Set(companyId === COMPANY && sender === 'Shop' ? phones.filter((phone) => optedOut.includes(phone)) : []);
    },
  } as unknown as SuppressionCheck;
  // The sender `Theirs` is another company's.
  const senders = {
    check: async (_companyId: string, sender: string) => {
      if (sender === 'Theirs') throw new ApiError(HttpStatus.FORBIDDEN, 'That sender is assigned to another company');
    },
  } as unknown as SenderPolicy;
  return Object.assign(new SmsEstimateService({ rules: async () => rules } as unknown as PriceBook, new GatewayEnv(), suppression, senders), { checks });
};

describe('SmsEstimateService', () => {
  it('prices each valid recipient by its parts, lists the invalid ones, and sends nothing', async () => {
    const answer = await estimator([
      { prefix: '+', route: 'auto', price: 100n },
      { prefix: '+33', route: 'auto', price: 250n },
    ]).estimate(COMPANY, {
      to: '+447911123456, +33612345678, 12',
      message: 'ж'.repeat(71),
    });
    expect(answer).toEqual({
      status: 'success',
      message: 'Estimate only: nothing was sent or charged',
      data: {
        encoding: 'UCS-2',
        parts: 2,
        characters: 71,
        first_non_gsm_character: 'ж',
        route: 'auto',
        total_cost: 0.07,
        recipients: [
          { to: '+447911123456', parts: 2, price_per_part: 0.01, cost: 0.02 },
          { to: '+33612345678', parts: 2, price_per_part: 0.025, cost: 0.05 },
        ],
        failed_numbers: [{ number: '12', error: INVALID_PHONE_NUMBER }],
      },
    });
  });

  it('refuses a list without a valid number and a recipient without a price (400)', async () => {
    expect(await refusal(estimator().estimate(COMPANY, { to: '12', message: 'Hi' }))).toEqual({ status: 400, body: { error: INVALID_PHONE_NUMBER } });
    expect(await refusal(estimator([]).estimate(COMPANY, { to: '+447911123456', message: 'Hi' }))).toEqual({
      status: 400,
      body: { error: 'No price is set for +447911123456 on route auto' },
    });
  });

  it('lists a recipient who opted out of the sender as failed, pricing only the others, as the send would', async () => {
    const rules = [{ prefix: '+', route: 'auto' as const, price: 100n }];
    const estimate = estimator(rules, ['+33612345678']);
    const answer = await estimate.estimate(COMPANY, { to: '+447911123456, +33612345678, 12', message: 'Hi', from: 'Shop' });
    expect(answer.data).toMatchObject({
      total_cost: 0.01,
      recipients: [{ to: '+447911123456', parts: 1, price_per_part: 0.01, cost: 0.01 }],
      failed_numbers: [
        { number: '12', error: INVALID_PHONE_NUMBER },
        { number: '+33612345678', error: RECIPIENT_OPTED_OUT },
      ],
    });
    expect(estimate.checks).toEqual([[COMPANY, 'Shop', ['+447911123456', '+33612345678']]]);
    const otherSender = await estimator(rules, ['+33612345678']).estimate(COMPANY, { to: '+447911123456, +33612345678', message: 'Hi', from: 'Acme' });
    expect(otherSender.data.total_cost).toBe(0.02);
    expect(otherSender.data.failed_numbers).toEqual([]);
  });

  it('refuses with 403 when every valid recipient opted out, with failed_numbers when several were given', async () => {
    const optedOut = estimator(DEFAULT_PRICES, ['+447911123456', '+33612345678']);
    expect(await refusal(optedOut.estimate(COMPANY, { to: '+447911123456', message: 'Hi', from: 'Shop' }))).toEqual({
      status: 403,
      body: { error: RECIPIENT_OPTED_OUT },
    });
    expect(await refusal(optedOut.estimate(COMPANY, { to: '+447911123456;+33612345678;x', message: 'Hi', from: 'Shop' }))).toEqual({
      status: 403,
      body: {
        error: RECIPIENT_OPTED_OUT,
        failed_numbers: [
          { number: 'x', error: INVALID_PHONE_NUMBER },
          { number: '+447911123456', error: RECIPIENT_OPTED_OUT },
          { number: '+33612345678', error: RECIPIENT_OPTED_OUT },
        ],
      },
    });
  });

  it('refuses a sender of another company with 403, as the send does', async () => {
    expect(await refusal(estimator().estimate(COMPANY, { to: '+447911123456', message: 'Hi', from: 'Theirs' }))).toEqual({
      status: 403,
      body: { error: 'That sender is assigned to another company' },
    });
  });
});
