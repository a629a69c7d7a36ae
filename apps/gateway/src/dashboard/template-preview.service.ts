import { HttpStatus, Injectable } from '@nestjs/common';
import { CompanyRepository, type ApplicationEntity } from '@mp/accounts';
import { resolveApplicationSettings } from '@mp/accounts-domain';
import { findPrice, formatMoney, type PriceRoute } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { findUcs2Character, INVALID_PHONE_NUMBER, MAX_SMS_CHARACTERS, parseRecipients, splitSms } from '@mp/messaging-domain';
import { OTP_LENGTH, otpTemplateVariables, renderOtpTemplate, templateMentionsCode } from '@mp/otp-domain';
import { resolveCustomVars } from '../otp/otp-request';
import { PriceBook } from '../pricing/price-book.service';
import type { TemplatePreviewDto, TemplatePreviewRequestDto } from './applications.dto';

const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
/** The code a preview shows: the default length's digits, so the parts counted are a real send's. */
export const SAMPLE_CODE = '1234567890'.slice(0, OTP_LENGTH.default);

const badRequest = (error: string) => new ApiError(HttpStatus.BAD_REQUEST, error);

/**
 * A template as an OTP of the application would send it: rendered as the OTP sender renders it
 * (otpTemplateVariables, renderOtpTemplate), then split and priced as POST /sms/estimate does
 * (splitSms, the price book's findPrice), so the console shows what a send costs.
 */
@Injectable()
export class TemplatePreviewService {
  constructor(
    private readonly priceBook: PriceBook,
    private readonly companies: CompanyRepository,
  ) {}

  async preview(application: ApplicationEntity, request: TemplatePreviewRequestDto, now = new Date()): Promise<TemplatePreviewDto> {
    const lang = (request.lang ?? 'en').trim();
    if (!LANG.test(lang)) throw badRequest('lang must be a language code such as en or pt-BR');
    if ([...request.text].length > MAX_SMS_CHARACTERS) throw badRequest(`text must be at most ${MAX_SMS_CHARACTERS} characters`);
    const customVars = resolveCustomVars(request.custom_vars);
    if (!customVars.ok) throw badRequest(customVars.error);
    const recipient = this.sampleRecipient(request.to);
    const route = (request.route ?? 'auto') as PriceRoute;
    const rendered = this.render(application, { text: request.text, lang, recipient, customVars: customVars.value }, now);
    if (rendered.length === 0) throw badRequest('the text renders as nothing');
    if ([...rendered].length > MAX_SMS_CHARACTERS) throw badRequest(`the text is over ${MAX_SMS_CHARACTERS} characters once rendered`);
    const split = splitSms(rendered);
    const rule = findPrice(await this.priceBook.rules(), recipient, route);
    if (!rule) throw badRequest(`No price is set for ${recipient} on route ${route}`);
    const company = await this.companies.findById(application.companyId);
    return {
      rendered_text: rendered,
      characters: [...rendered].length,
      encoding: split.encoding,
      parts: split.parts.length,
      ucs2_character: findUcs2Character(rendered),
      shows_code: templateMentionsCode(request.text),
      to: recipient,
      route,
      price_per_part: formatMoney(rule.price),
      cost: formatMoney(rule.price * BigInt(split.parts.length)),
      currency: company?.currency ?? '',
    };
  }

  /** The sample number in E.164, read as a send reads its recipients. */
  private sampleRecipient(to: string): string {
    const list = parseRecipients(to);
    if (list.total !== 1) throw badRequest('to must be one phone number');
    const [valid] = list.valid;
    if (!valid) throw badRequest(INVALID_PHONE_NUMBER);
    return valid.e164;
  }

  private render(
    application: ApplicationEntity,
    sample: { text: string; lang: string; recipient: string; customVars: Record<string, string | number | boolean> },
    now: Date,
  ): string {
    const settings = resolveApplicationSettings(application.settings);
    const variables = otpTemplateVariables({
      code: SAMPLE_CODE,
      appName: application.name,
      expiresAt: new Date(now.getTime() + settings.otp_validity_minutes * 60_000),
      expiryMinutes: settings.otp_validity_minutes,
      timeZone: settings.timezone,
      recipient: sample.recipient,
      channel: 'sms',
      lang: sample.lang,
      customVars: sample.customVars,
    });
    return renderOtpTemplate(sample.text, variables);
  }
}
