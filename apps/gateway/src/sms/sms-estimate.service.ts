import { HttpStatus, Injectable } from '@nestjs/common';
import { findPrice, moneyToJson } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { SuppressionCheck } from '@mp/messaging';
import { INVALID_PHONE_NUMBER, parseRecipients, splitSms, SmsTextError } from '@mp/messaging-domain';
import { GatewayEnv } from '../gateway.env';
import { PriceBook } from '../pricing/price-book.service';
import { SenderPolicy } from '../senders/sender-policy.service';
import { withoutOptedOut } from './opted-out-recipients';
import { MAX_RECIPIENTS_PER_SEND, resolveSmsRequest, webhookPolicyOf } from './sms-request';
import type { SmsSendDto } from './sms-send.dto';

/**
 * POST /sms/estimate: what a send would cost and how it would be split, sending nothing. A number
 * that opted out of the sender is listed failed and left out of the cost, and a sender the
 * company may not use is refused, as the send would.
 */
@Injectable()
export class SmsEstimateService {
  constructor(
    private readonly priceBook: PriceBook,
    private readonly config: GatewayEnv,
    private readonly suppression: SuppressionCheck,
    private readonly senders: SenderPolicy,
  ) {}

  async estimate(companyId: string, dto: SmsSendDto) {
    const resolved = resolveSmsRequest(dto, { webhookPolicy: webhookPolicyOf(this.config) });
    if (!resolved.ok) throw new ApiError(HttpStatus.BAD_REQUEST, resolved.error);
    const request = resolved.value;
    await this.senders.check(companyId, request.sender);
    const parsed = parseRecipients(request.recipients);
    if (parsed.total > MAX_RECIPIENTS_PER_SEND) {
      throw new ApiError(HttpStatus.BAD_REQUEST, `at most ${MAX_RECIPIENTS_PER_SEND} recipients per request`);
    }
    if (parsed.valid.length === 0) throw new ApiError(HttpStatus.BAD_REQUEST, INVALID_PHONE_NUMBER);
    const list = await withoutOptedOut(this.suppression, companyId, request.sender, parsed);
    let split;
    try {
      split = splitSms(request.message);
    } catch (error) {
      if (error instanceof SmsTextError) throw new ApiError(HttpStatus.BAD_REQUEST, error.message);
      throw error;
    }
    const rules = await this.priceBook.rules();
    const recipients = list.valid.map(({ e164 }) => {
      const rule = findPrice(rules, e164, request.route);
      if (!rule) throw new ApiError(HttpStatus.BAD_REQUEST, `No price is set for ${e164} on route ${request.route}`);
      const cost = rule.price * BigInt(split.parts.length);
      return { to: e164, price_per_part: moneyToJson(rule.price), cost };
    });
    const total = recipients.reduce((sum, r) => sum + r.cost, 0n);
    return {
      status: 'success' as const,
      message: 'Estimate only: nothing was sent or charged',
      data: {
        encoding: split.encoding,
        parts: split.parts.length,
        characters: [...request.message].length,
        first_non_gsm_character: split.firstNonGsmCharacter,
        route: request.route,
        total_cost: moneyToJson(total),
        recipients: recipients.map((r) => ({ to: r.to, parts: split.parts.length, price_per_part: r.price_per_part, cost: moneyToJson(r.cost) })),
        failed_numbers: list.invalid,
      },
    };
  }
}
