import { DEFAULT_PRICES, type PriceRule } from '@mp/billing-domain';
import { INVALID_PHONE_NUMBER } from '@mp/messaging-domain';
import { GatewayEnv } from '../gateway.env';
import type { PriceBook } from '../pricing/price-book.service';
import { refusal } from '../testing/api-refusal';
import { SmsEstimateService } from './sms-estimate.service';

const estimator = (rules: readonly PriceRule[] = DEFAULT_PRICES) =>
  new SmsEstimateService({ rules: async () => rules } as unknown as PriceBook, new GatewayEnv());

describe('SmsEstimateService', () => {
  it('prices each valid recipient by its parts, lists the invalid ones, and sends nothing', async () => {
    const answer = await estimator([
      { prefix: '+', route: 'auto', price: 100n },
      { prefix: '+33', route: 'auto', price: 250n },
    ]).estimate({
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
    expect(await refusal(estimator().estimate({ to: '12', message: 'Hi' }))).toEqual({ status: 400, body: { error: INVALID_PHONE_NUMBER } });
    expect(await refusal(estimator([]).estimate({ to: '+447911123456', message: 'Hi' }))).toEqual({
      status: 400,
      body: { error: 'No price is set for +447911123456 on route auto' },
    });
  });
});
