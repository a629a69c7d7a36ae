import type { ApplicationEntity, ApplicationRepository, TemplateRepository } from '@mp/accounts';
import { DEFAULT_PRICES } from '@mp/billing-domain';
import { PlatformMetrics } from '@mp/metrics';
import {
  OtpBlockedError,
  OtpNotAffordableError,
  type OtpResender,
  type OtpSendCommand,
  type OtpSender,
  type OtpSent,
  type FoundOtp,
  type OtpTarget,
  type OtpVerifier,
  type VerifyOutcome,
} from '@mp/otp';
import { HttpStatus } from '@nestjs/common';
import { ApiError } from '@mp/http-kit';
import { RECIPIENT_OPTED_OUT } from '@mp/messaging-domain';
import { DEFAULT_OTP_TEMPLATE } from '@mp/otp-domain';
import type { WindowTake } from '@mp/rate-limit';
import type { PriceBook } from '../pricing/price-book.service';
import { refusal } from '../testing/api-refusal';
import type { FraudCheck, OtpFraudGuard } from './otp-fraud-guard.service';
import type { OtpRateLimiter, SendSlot } from './otp-rate-limiter.service';
import type { OtpOptOutPolicy } from './otp-opt-out-policy.service';
import type { SenderPolicy } from '../senders/sender-policy.service';
import { OtpService } from './otp.service';

const COMPANY = 'company-1';
const application = { id: 'application-1', appid: 'app_1', name: 'Shop', companyId: COMPANY, settings: {} } as ApplicationEntity;
const sent: OtpSent = {
  verificationId: 'v-1',
  recipient: '+447911123456',
  channel: 'sms',
  expiresAt: new Date('2026-11-22T10:10:00Z'),
  cost: 100n,
  balance: 900n,
};
const prefixWindow = { key: 'prefix' } as unknown as WindowTake;

interface Fakes {
  slot?: SendSlot;
  send?: (command: OtpSendCommand) => Promise<OtpSent>;
  outcome?: VerifyOutcome;
  /** The OTP a resend finds (default: v-1, an SMS from `OTP`); null for none. */
  found?: FoundOtp | null;
  /** The recipients the opt-out policy refuses. */
  optedOut?: readonly string[];
}

function service(fakes: Fakes = {}) {
  const calls = {
    sends: [] as OtpSendCommand[],
    resends: [] as OtpTarget[],
    admitted: [] as string[][],
    lookups: 0,
    released: 0,
    takes: [] as [string, readonly WindowTake[]][],
    refusedPrefix: [] as FraudCheck[],
  };
  const sender = {
    send: async (command: OtpSendCommand) => (calls.sends.push(command), (fakes.send ?? (async () => sent))(command)),
    idle: async () => undefined,
  } as unknown as OtpSender;
  const found: FoundOtp | null =
    fakes.found === undefined ? { id: 'v-1', application_id: 'application-1', recipient: '+447911123456', channel: 'sms', sender: 'OTP' } : fakes.found;
  const resender = {
    find: async (companyId: string) => (companyId === COMPANY ? found : null),
    resend: async (_companyId: string, target: OtpTarget) => (calls.resends.push(target), sent),
  } as unknown as OtpResender;
  const optOuts = {
    admit: async (companyId: string, channel: string, sender: string, recipient: string) => {
      calls.admitted.push([companyId, channel, sender, recipient]);
      if (fakes.optedOut?.includes(recipient)) throw new ApiError(HttpStatus.FORBIDDEN, RECIPIENT_OPTED_OUT);
    },
  } as unknown as OtpOptOutPolicy;
  const verifier = { verify: async () => fakes.outcome ?? { outcome: 'not_found' } } as unknown as OtpVerifier;
  const applications = {
    findForCompany: async (companyId: string, appid: string) => (calls.lookups++, companyId === COMPANY && appid === 'app_1' ? application : null),
  } as unknown as ApplicationRepository;
  const templates = { findText: async () => null } as unknown as TemplateRepository;
  const priceBook = { rules: async () => DEFAULT_PRICES } as unknown as PriceBook;
  const limiter = {
    take: async (companyId: string, also: readonly WindowTake[]) => {
      calls.takes.push([companyId, also]);
      return fakes.slot ?? { allowed: true, release: async () => void calls.released++ };
    },
  } as unknown as OtpRateLimiter;
  const fraud = {
    admit: async () => prefixWindow,
    prefixRefusal: async (check: FraudCheck) => (calls.refusedPrefix.push(check), new Error('prefix refused')),
  } as unknown as OtpFraudGuard;
  return {
    otp: new OtpService(
      sender,
      resender,
      verifier,
      applications,
      templates,
      priceBook,
      limiter,
      fraud,
      optOuts,
      new PlatformMetrics('gateway', { defaultMetrics: false }),
      { check: async () => undefined } as unknown as SenderPolicy,
    ),
    calls,
  };
}

describe('OtpService', () => {
  it("sends with the application's settings and the default text, taking the company's and the prefix's slots", async () => {
    const { otp, calls } = service();
    expect(await otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' })).toEqual({
      status: 'success',
      message: 'OTP sent',
      verification_id: 'v-1',
      recipient: '+447911123456',
      channel: 'sms',
      expires_at: '2026-11-22T10:10:00.000Z',
      cost: 0.01,
      balance: 0.09,
    });
    expect(calls.sends).toEqual([
      expect.objectContaining({ companyId: COMPANY, recipient: '+447911123456', templateText: DEFAULT_OTP_TEMPLATE, lang: 'en', codeLength: 6, code: null }),
    ]);
    expect(calls.sends[0].application).toMatchObject({ id: 'application-1', name: 'Shop', settings: { otp_validity_minutes: expect.any(Number) } });
    expect(calls.takes).toEqual([[COMPANY, [prefixWindow]]]);
  });

  it('reads an application once for sends close together', async () => {
    const { otp, calls } = service();
    await otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' });
    await otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123457' });
    expect(calls.lookups).toBe(1);
  });

  it('refuses an application of another company (404) and a number that is not one (400), taking no slot', async () => {
    const { otp, calls } = service();
    expect(await refusal(otp.send('company-2', { appid: 'app_1', recipient: '+447911123456' }))).toEqual({
      status: 404,
      body: { error: 'Application not found' },
    });
    expect(await refusal(otp.send(COMPANY, { appid: 'app_1', recipient: '12' }))).toMatchObject({ status: 400 });
    expect(calls.takes).toEqual([]);
  });

  it("answers 429 with Retry-After when the company's minute is full, and the fraud guard's refusal when the prefix window is", async () => {
    const company = service({ slot: { allowed: false, refusedBy: 'company', limit: 20, retryAfterMs: 1_500 } });
    expect(await refusal(company.otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' }))).toEqual({
      status: 429,
      body: { error: 'OTP rate limit exceeded: 20 per minute; try again in 2 seconds', retry_after: 2 },
    });
    const prefix = service({ slot: { allowed: false, refusedBy: 0, limit: 5, retryAfterMs: 1_000 } });
    await expect(prefix.otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' })).rejects.toThrow('prefix refused');
    expect(prefix.calls.refusedPrefix).toEqual([expect.objectContaining({ recipient: '+447911123456' })]);
    expect(company.calls.sends).toEqual([]);
  });

  it('gives the slot back when the send is refused, answering 429 for a blocked recipient and 402 for a short balance', async () => {
    const blocked = service({ send: async () => Promise.reject(new OtpBlockedError(new Date(), 60)) });
    expect(await refusal(blocked.otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' }))).toMatchObject({ status: 429, body: { retry_after: 60 } });
    expect(blocked.calls.released).toBe(1);
    const poor = service({ send: async () => Promise.reject(new OtpNotAffordableError(50n, 100n)) });
    expect(await refusal(poor.otp.send(COMPANY, { appid: 'app_1', recipient: '+447911123456' }))).toEqual({
      status: 402,
      body: { error: 'Insufficient balance', balance: 0.005, cost: 0.01 },
    });
    expect(poor.calls.released).toBe(1);
  });

  it('answers each verification outcome as the interface says', async () => {
    const verifiedAt = new Date('2026-11-22T10:01:00Z');
    expect(
      await service({ outcome: { outcome: 'verified', verificationId: 'v-1', recipient: '+447911123456', verifiedAt } }).otp.verify(COMPANY, {
        verification_id: 'v-1',
        otp_code: '123456',
      }),
    ).toEqual({
      status: 'success',
      message: 'OTP verified',
      verification_id: 'v-1',
      recipient: '+447911123456',
      verified: true,
      verified_at: '2026-11-22T10:01:00.000Z',
    });
    const verify = (outcome: VerifyOutcome) => refusal(service({ outcome }).otp.verify(COMPANY, { verification_id: 'v-1', otp_code: '123456' }));
    expect(await verify({ outcome: 'invalid_code', verificationId: 'v-1', attemptsRemaining: 2 })).toEqual({
      status: 400,
      body: { error: 'Invalid OTP code', attempts_remaining: 2 },
    });
    expect(await verify({ outcome: 'blocked', retryAfterSeconds: 30 })).toMatchObject({ status: 429, body: { retry_after: 30 } });
    expect(await verify({ outcome: 'not_found' })).toEqual({ status: 404, body: { error: 'OTP not found' } });
    expect(await verify({ outcome: 'failed', verificationId: 'v-1', reason: 'undelivered', errorCode: '001' })).toEqual({
      status: 400,
      body: { error: 'OTP delivery failed; resend it or send a new one', failure_reason: 'undelivered', error_code: '001' },
    });
  });

  it("resends the OTP found by its id once its recipient is admitted by the opt-out policy, with the OTP's channel and sender", async () => {
    const { otp, calls } = service({ found: { id: 'v-1', application_id: 'application-1', recipient: '+447911123456', channel: 'sms', sender: 'Shop' } });
    expect(await otp.resend(COMPANY, { appid: 'app_1', recipient: '+447911123456' })).toMatchObject({
      status: 'success',
      message: 'OTP resent',
      verification_id: 'v-1',
    });
    expect(calls.admitted).toEqual([[COMPANY, 'sms', 'Shop', '+447911123456']]);
    expect(calls.resends).toEqual([{ verificationId: 'v-1' }]);
    expect(calls.takes).toEqual([[COMPANY, []]]);
  });

  it('refuses a resend to a recipient who opted out with 403 before any slot is taken or anything resent; an unknown OTP is 404', async () => {
    const { otp, calls } = service({ optedOut: ['+447911123456'] });
    expect(await refusal(otp.resend(COMPANY, { verification_id: 'v-1' }))).toEqual({ status: 403, body: { error: RECIPIENT_OPTED_OUT } });
    expect(calls.takes).toEqual([]);
    expect(calls.resends).toEqual([]);
    const none = service({ found: null });
    expect(await refusal(none.otp.resend(COMPANY, { verification_id: 'v-2' }))).toEqual({ status: 404, body: { error: 'OTP not found' } });
    expect(none.calls.admitted).toEqual([]);
  });
});
