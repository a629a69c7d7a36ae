import { fail, firstGiven, type Result } from '@mp/http-kit';
import { checkSender } from '@mp/messaging-domain';
import { isValidOtpCode, OTP_LENGTH, OTP_VALIDITY, type OtpChannel } from '@mp/otp-domain';
import type { OtpTemplateChoice } from '@mp/otp';
import type { OtpResendDto, OtpSendDto, OtpVerifyDto } from './otp.dto';

export const DEFAULT_OTP_SENDER = 'OTP';
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
const CUSTOM_VAR_NAME = /^[A-Za-z0-9_]{1,40}$/;
const MAX_CUSTOM_VARS = 20;
const MAX_TEMPLATE_CHARACTERS = 1600;
/** Template ids are PostgreSQL integers: 1 to 2^31 - 1. */
const MAX_TEMPLATE_ID = 2_147_483_647;

export interface OtpSendRequest {
  appid: string;
  recipient: string;
  channel: OtpChannel;
  sender: string;
  codeLength: number;
  code: string | null;
  template: OtpTemplateChoice;
  lang: string;
  customVars: Record<string, string | number | boolean>;
  expiryMinutes: number | null;
}

/** The first of a field and its aliases that is not blank, trimmed. */
function firstTrimmed(...values: (string | undefined)[]): string | undefined {
  return firstGiven(...values)?.trim();
}

/** Applies the aliases and defaults of POST /otp/send and checks each field, naming the bad one. */
export function resolveOtpSend(dto: OtpSendDto): Result<OtpSendRequest> {
  const appid = firstTrimmed(dto.appid);
  if (!appid) return fail('appid is required');
  const recipient = firstTrimmed(dto.recipient, dto.phone, dto.to);
  if (!recipient) return fail('recipient is required');
  const channel = dto.channel ?? 'sms';
  if (channel !== 'sms' && channel !== 'whatsapp') return fail('channel must be sms or whatsapp');
  const sender = checkSender(firstTrimmed(dto.from, dto.sender) ?? DEFAULT_OTP_SENDER);
  if (!sender.ok) return fail(sender.error);
  const code = firstTrimmed(dto.otp_code, dto.code) ?? null;
  if (code !== null && !isValidOtpCode(code)) return fail('otp_code must be 4 to 8 digits');
  const length = integerIn(dto.otp_length, OTP_LENGTH.min, OTP_LENGTH.max, 'otp_length');
  if (!length.ok) return length;
  const template = resolveTemplate(dto.template);
  if (!template.ok) return template;
  const lang = dto.lang ?? 'en';
  if (!LANG.test(lang)) return fail('lang must be a language code such as en or pt-BR');
  const customVars = resolveCustomVars(dto.custom_vars);
  if (!customVars.ok) return customVars;
  const expiry = integerIn(dto.expiry_minutes, OTP_VALIDITY.minMinutes, OTP_VALIDITY.maxMinutes, 'expiry_minutes');
  if (!expiry.ok) return expiry;
  return {
    ok: true,
    value: {
      appid,
      recipient,
      channel,
      sender: sender.sender,
      codeLength: code?.length ?? length.value ?? OTP_LENGTH.default,
      code,
      template: template.value,
      lang,
      customVars: customVars.value,
      expiryMinutes: expiry.value,
    },
  };
}

export type OtpVerifyRequest = { code: string } & ({ verificationId: string } | { appid: string; recipient: string });

/** `verification_id` + code, or `appid` + `recipient` + code. */
export function resolveOtpVerify(dto: OtpVerifyDto): Result<OtpVerifyRequest> {
  const code = firstTrimmed(dto.otp_code, dto.code);
  if (!code) return fail('otp_code is required');
  const target = resolveOtpTarget(dto);
  return target.ok ? { ok: true, value: { code, ...target.value } } : target;
}

export type OtpTargetRequest = { verificationId: string } | { appid: string; recipient: string };

/** `verification_id`, or `appid` + `recipient` (alias `phone`): which OTP a verify or resend is about. */
export function resolveOtpTarget(dto: OtpResendDto): Result<OtpTargetRequest> {
  const verificationId = firstTrimmed(dto.verification_id);
  if (verificationId) return { ok: true, value: { verificationId } };
  const appid = firstTrimmed(dto.appid);
  const recipient = firstTrimmed(dto.recipient, dto.phone);
  if (!appid && !recipient) return fail('verification_id is required (or appid and recipient)');
  if (!appid) return fail('appid is required');
  if (!recipient) return fail('recipient is required');
  return { ok: true, value: { appid, recipient } };
}

/** An optional whole number (a JSON number, or digits in a string) within bounds. */
function integerIn(value: unknown, min: number, max: number, field: string): Result<number | null> {
  if (value === undefined || value === null || value === '') return { ok: true, value: null };
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    return fail(`${field} must be an integer from ${min} to ${max}`);
  }
  return { ok: true, value: number };
}

function resolveTemplate(value: unknown): Result<OtpTemplateChoice> {
  if (value === undefined || value === null || value === '') return { ok: true, value: null };
  if (typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value.trim()))) {
    const id = Number(value);
    if (!Number.isSafeInteger(id) || id < 1 || id > MAX_TEMPLATE_ID) return fail(`template must be a template id (1 to ${MAX_TEMPLATE_ID}) or a template text`);
    return { ok: true, value: { id } };
  }
  if (typeof value !== 'string') return fail('template must be a template id or a template text');
  if ([...value].length > MAX_TEMPLATE_CHARACTERS) return fail(`template must be at most ${MAX_TEMPLATE_CHARACTERS} characters`);
  return { ok: true, value: { text: value } };
}

export function resolveCustomVars(value: unknown): Result<Record<string, string | number | boolean>> {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== 'object' || Array.isArray(value)) return fail('custom_vars must be an object');
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_CUSTOM_VARS) return fail(`custom_vars may hold at most ${MAX_CUSTOM_VARS} variables`);
  for (const [name, item] of entries) {
    if (!CUSTOM_VAR_NAME.test(name)) return fail(`custom_vars.${name}: names are letters, digits and _ (at most 40)`);
    if (!['string', 'number', 'boolean'].includes(typeof item)) return fail(`custom_vars.${name} must be text, a number or a boolean`);
    if (typeof item === 'string' && item.length > 200) return fail(`custom_vars.${name} must be at most 200 characters`);
  }
  return { ok: true, value: Object.fromEntries(entries) as Record<string, string | number | boolean> };
}
