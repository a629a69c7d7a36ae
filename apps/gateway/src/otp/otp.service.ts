import { BeforeApplicationShutdown, HttpStatus, Injectable } from '@nestjs/common';
import { ApplicationRepository, TemplateRepository, type ApplicationEntity } from '@mp/accounts';
import { resolveApplicationSettings } from '@mp/accounts-domain';
import { moneyToJson } from '@mp/billing-domain';
import { ApiError } from '@mp/http-kit';
import { PlatformMetrics } from '@mp/metrics';
import { INVALID_PHONE_NUMBER, parsePhoneNumber } from '@mp/messaging-domain';
import {
  OtpBlockedError,
  OtpNoPriceError,
  OtpNotAffordableError,
  OtpNotFoundError,
  OtpNotResendableError,
  OtpResender,
  OtpResendRefusedError,
  OtpSender,
  OtpTemplateError,
  OtpVerifier,
  otpTemplateText,
  type OtpSent,
  type OtpTarget,
  type VerifyOutcome,
  type BeforeOtpCommit,
} from '@mp/otp';
import type { WindowTake } from '@mp/rate-limit';
import { LoadingCache } from '../common/loading-cache';
import { PriceBook } from '../pricing/price-book.service';
import { resolveOtpSend, resolveOtpTarget, resolveOtpVerify, type OtpSendRequest, type OtpTargetRequest } from './otp-request';
import type { OtpResendDto } from './otp.dto';
import type { RecordPendingAnswer } from '../idempotency/idempotent-send.decorator';
import { OtpFraudGuard } from './otp-fraud-guard.service';
import { OtpMetrics } from './otp-metrics';
import { OtpOptOutPolicy } from './otp-opt-out-policy.service';
import { OtpRateLimiter } from './otp-rate-limiter.service';
import { SenderPolicy } from '../senders/sender-policy.service';
import { DEFAULT_OTP_SENDER } from './otp-request';

/**
 * How long an application (its settings included) is used without reading it again: an
 * operator's `app:update` takes effect within this. Read on every send, it would cost a query
 * per OTP (docs/decisions/0028-loading-cache.md).
 */
const APPLICATION_TTL_MS = 5_000;

/** POST /otp/send and /otp/verify: the HTTP side of libs/otp. */
@Injectable()
export class OtpService implements BeforeApplicationShutdown {
  private readonly applicationCache = new LoadingCache<ApplicationEntity>({ ttlMs: APPLICATION_TTL_MS });
  private readonly metrics: OtpMetrics;

  constructor(
    private readonly sender: OtpSender,
    private readonly resender: OtpResender,
    private readonly verifier: OtpVerifier,
    private readonly applications: ApplicationRepository,
    private readonly templates: TemplateRepository,
    private readonly priceBook: PriceBook,
    private readonly limiter: OtpRateLimiter,
    private readonly fraud: OtpFraudGuard,
    private readonly optOuts: OtpOptOutPolicy,
    metrics: PlatformMetrics,
    private readonly senders: SenderPolicy,
  ) {
    this.metrics = new OtpMetrics(metrics);
  }

  /** With recordPendingAnswer (an Idempotency-Key), the answer is recorded before the send commits, its balance left to its ledger charge. */
  async send(companyId: string, dto: Parameters<typeof resolveOtpSend>[0], recordPendingAnswer?: RecordPendingAnswer) {
    const resolved = resolveOtpSend(dto);
    if (!resolved.ok) throw badRequest(resolved.error);
    const request = resolved.value;
    const application = await this.application(companyId, request.appid);
    const phone = parsePhoneNumber(request.recipient);
    if (!phone.ok) throw badRequest(INVALID_PHONE_NUMBER);
    await this.senders.check(companyId, request.sender, DEFAULT_OTP_SENDER);
    await this.optOuts.admit(companyId, request.channel, request.sender, phone.e164);
    const check = {
      companyId,
      application: { id: application.id, settings: resolveApplicationSettings(application.settings) },
      recipient: phone.e164,
      country: phone.country,
    };
    const prefixWindow = await this.fraud.admit(check);
    const beforeCommit: BeforeOtpCommit | undefined =
      recordPendingAnswer &&
      (({ chargeReference, ...pending }) =>
        recordPendingAnswer({ body: sentAnswer('OTP sent', { ...pending, balance: 0n }), balancePath: ['balance'], chargeReference }));
    const sent = await this.rateLimited(companyId, () => this.sendWith(companyId, application, { ...request, recipient: phone.e164 }, beforeCommit), {
      window: prefixWindow,
      refusal: (limit, retryAfterMs) => this.fraud.prefixRefusal(check, limit, retryAfterMs),
    });
    return sentAnswer('OTP sent', sent);
  }

  /**
   * A new code for the same verification id; rate-limited and charged like a send, and refused
   * like a send (before a slot is taken) when its recipient has opted out of its sender.
   */
  async resend(companyId: string, dto: OtpResendDto) {
    const resolved = resolveOtpTarget(dto);
    if (!resolved.ok) throw badRequest(resolved.error);
    const otp = await this.resender.find(companyId, await this.target(companyId, resolved.value));
    if (!otp) throw mapSendError(new OtpNotFoundError());
    await this.optOuts.admit(companyId, otp.channel, otp.sender, otp.recipient);
    const prices = await this.priceBook.rules();
    return sentAnswer('OTP resent', await this.rateLimited(companyId, () => this.resender.resend(companyId, { verificationId: otp.id }, prices)));
  }

  /**
   * Takes a slot of the company's limit, and of the `prefix` window with it (both or neither),
   * does the work, and gives the slots back if the work fails. A full prefix window's refusal is
   * made by its `refusal`.
   */
  private async rateLimited(
    companyId: string,
    work: () => Promise<OtpSent>,
    prefix?: { window: WindowTake; refusal: (limit: number, retryAfterMs: number) => Promise<Error> },
  ): Promise<OtpSent> {
    const slot = await this.limiter.take(companyId, prefix ? [prefix.window] : []);
    if (!slot.allowed) {
      if (slot.refusedBy !== 'company' && prefix) throw await prefix.refusal(slot.limit, slot.retryAfterMs);
      throw tooManyRequests(`OTP rate limit exceeded: ${slot.limit} per minute`, Math.ceil(slot.retryAfterMs / 1000));
    }
    try {
      const sent = await work();
      this.metrics.sent(sent);
      return sent;
    } catch (error) {
      await slot.release().catch(() => undefined);
      throw mapSendError(error);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.sender.idle();
  }

  async verify(companyId: string, dto: Parameters<typeof resolveOtpVerify>[0]) {
    const resolved = resolveOtpVerify(dto);
    if (!resolved.ok) throw badRequest(resolved.error);
    const target = await this.target(companyId, resolved.value);
    const outcome = await this.verifier.verify(companyId, target, resolved.value.code);
    this.metrics.verified(outcome);
    return verifyAnswer(outcome);
  }

  private async target(companyId: string, request: OtpTargetRequest): Promise<OtpTarget> {
    if ('verificationId' in request) return { verificationId: request.verificationId };
    const application = await this.application(companyId, request.appid);
    const phone = parsePhoneNumber(request.recipient);
    if (!phone.ok) throw badRequest(INVALID_PHONE_NUMBER);
    return { applicationId: application.id, recipient: phone.e164 };
  }

  private async sendWith(companyId: string, application: ApplicationEntity, request: OtpSendRequest, beforeCommit?: BeforeOtpCommit): Promise<OtpSent> {
    // The language of the text used (a translation, `en`, the template's own) is what the OTP is sent in.
    const template = await otpTemplateText(this.templates, application.id, request.template, request.lang, request.channel);
    return this.sender.send(
      {
        companyId,
        application: { id: application.id, name: application.name, settings: resolveApplicationSettings(application.settings) },
        recipient: request.recipient,
        channel: request.channel,
        sender: request.sender,
        codeLength: request.codeLength,
        code: request.code,
        templateText: template.text,
        lang: template.lang,
        customVars: request.customVars,
        expiryMinutes: request.expiryMinutes,
      },
      await this.priceBook.rules(),
      beforeCommit,
    );
  }

  private async application(companyId: string, appid: string): Promise<ApplicationEntity> {
    const application = await this.applicationCache.get(
      `${companyId}:${appid}`,
      async () => (await this.applications.findForCompany(companyId, appid)) ?? undefined,
    );
    if (!application) throw new ApiError(HttpStatus.NOT_FOUND, 'Application not found');
    return application;
  }
}

function badRequest(error: string): ApiError {
  return new ApiError(HttpStatus.BAD_REQUEST, error);
}

function tooManyRequests(reason: string, retryAfter: number): ApiError {
  return new ApiError(
    HttpStatus.TOO_MANY_REQUESTS,
    `${reason}; try again in ${retryAfter} seconds`,
    { retry_after: retryAfter },
    { 'Retry-After': String(retryAfter) },
  );
}

function sentAnswer(message: string, sent: OtpSent) {
  return {
    status: 'success' as const,
    message,
    verification_id: sent.verificationId,
    recipient: sent.recipient,
    channel: sent.channel,
    expires_at: sent.expiresAt.toISOString(),
    cost: moneyToJson(sent.cost),
    balance: moneyToJson(sent.balance),
  };
}

function mapSendError(error: unknown): unknown {
  if (error instanceof OtpNotFoundError) return new ApiError(HttpStatus.NOT_FOUND, error.message);
  if (error instanceof OtpResendRefusedError) {
    return error.retryAfterSeconds === null ? badRequest(error.message) : tooManyRequests('Resent too soon', error.retryAfterSeconds);
  }
  if (error instanceof OtpNotResendableError) return badRequest(error.message);
  if (error instanceof OtpBlockedError) return tooManyRequests('Too many failed attempts for this recipient', error.retryAfterSeconds);
  if (error instanceof OtpNotAffordableError) {
    return new ApiError(HttpStatus.PAYMENT_REQUIRED, 'Insufficient balance', { balance: moneyToJson(error.balance), cost: moneyToJson(error.cost) });
  }
  if (error instanceof OtpTemplateError || error instanceof OtpNoPriceError) return badRequest(error.message);
  return error;
}

function verifyAnswer(outcome: VerifyOutcome) {
  switch (outcome.outcome) {
    case 'verified':
      return {
        status: 'success' as const,
        message: 'OTP verified',
        verification_id: outcome.verificationId,
        recipient: outcome.recipient,
        verified: true,
        verified_at: outcome.verifiedAt.toISOString(),
      };
    case 'invalid_code':
      throw new ApiError(HttpStatus.BAD_REQUEST, 'Invalid OTP code', { attempts_remaining: outcome.attemptsRemaining });
    case 'expired':
      throw badRequest('OTP expired');
    case 'already_verified':
      throw badRequest('OTP already verified');
    case 'failed':
      throw new ApiError(
        HttpStatus.BAD_REQUEST,
        outcome.reason === 'too_many_attempts' ? 'OTP failed after too many wrong codes; send a new one' : 'OTP delivery failed; resend it or send a new one',
        { failure_reason: outcome.reason, error_code: outcome.errorCode },
      );
    case 'no_longer_valid':
      throw badRequest(`OTP is ${outcome.status}; send a new one`);
    case 'blocked':
      throw tooManyRequests('Too many failed attempts', outcome.retryAfterSeconds);
    case 'not_found':
      throw new ApiError(HttpStatus.NOT_FOUND, 'OTP not found');
  }
}
