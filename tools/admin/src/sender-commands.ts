import {
  AuditLogRepository,
  InvalidArgumentError,
  keywordReplyText,
  MAX_KEYWORD_REPLY_LENGTH,
  MessagingSettings,
  messagingSettingsJson,
  parseNumber,
  parseSenderId,
  SenderRegistry,
  type AssignedSender,
  type MessagingSettingsChange,
} from '@mp/accounts';
import { checkWebhookUrl } from '@mp/webhooks';
import { booleanOf, parseOptions } from './arguments';
import type { AdminContext, Command } from './commands';
import { UsageError } from './usage-error';

const registry = async (context: AdminContext) => {
  const db = await context.database();
  return new SenderRegistry(db, new AuditLogRepository(db));
};
const settings = async (context: AdminContext) => {
  const db = await context.database();
  return new MessagingSettings(db, new AuditLogRepository(db));
};

const shown = (sender: AssignedSender) => ({ value: sender.value, kind: sender.kind, company_id: sender.companyId, assigned_at: sender.createdAt });

function numberKind(kind: string | undefined): 'long_code' | 'short_code' {
  if (kind === undefined || kind === 'long_code' || kind === 'short_code') return kind ?? 'long_code';
  throw new UsageError('--kind must be long_code or short_code');
}

/** The address, checked as a send's webhook_url is (with the same WEBHOOK_ALLOW_* variables); "none" clears it. */
function statusCallback(text: string, context: AdminContext, option = '--status-callback'): string | null {
  if (text === 'none') return null;
  try {
    return checkWebhookUrl(text, { allowLoopback: context.config.WEBHOOK_ALLOW_LOOPBACK, allowPrivate: context.config.WEBHOOK_ALLOW_PRIVATE }).toString();
  } catch (error) {
    throw new InvalidArgumentError(`${option} must be an http(s) URL of a public address without credentials, or "none": ${(error as Error).message}`);
  }
}

/** Numbers and sender ids of a company (company_senders), and its messaging settings. */
export const SENDER_COMMANDS: Record<string, Command> = {
  'number:assign': {
    summary: 'assign a number (a long code in E.164, or a short code of 3-8 digits) to a company: its sends may use it as from, no other company may',
    usage: 'number:assign --company ID --number +447400900123 [--kind long_code|short_code]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'number'], optional: ['kind'] });
      const kind = numberKind(values.kind);
      return shown(await (await registry(context)).assign(values.company, parseNumber(values.number, kind), kind));
    },
  },
  'number:unassign': {
    summary: 'take a number from a company',
    usage: 'number:unassign --company ID --number +447400900123',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'number'] });
      return { unassigned: await (await registry(context)).unassign(values.company, values.number) };
    },
  },
  'sender:assign': {
    summary: 'assign an alphanumeric sender id to a company: its sends may use it as from, no other company may',
    usage: 'sender:assign --company ID --sender Acme',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'sender'] });
      return shown(await (await registry(context)).assign(values.company, parseSenderId(values.sender), 'alphanumeric'));
    },
  },
  'sender:unassign': {
    summary: 'take a sender id from a company',
    usage: 'sender:unassign --company ID --sender Acme',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'sender'] });
      return { unassigned: await (await registry(context)).unassign(values.company, values.sender) };
    },
  },
  'sender:list': {
    summary: 'list the numbers and sender ids of a company',
    usage: 'sender:list --company ID',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company'] });
      return { senders: (await (await registry(context)).list(values.company)).map(shown) };
    },
  },
  'company:settings': {
    summary:
      'show, or change, the default status-callback address of every message sent without a webhook_url, the inbound webhook address (message.received, contact.opted_out/in), whether OTPs ignore opt-outs, and the STOP/START/HELP reply texts ("none" clears an address, "default" restores a reply)',
    usage:
      'company:settings --company ID [--status-callback URL|none] [--inbound-webhook URL|none] [--otp-ignores-opt-outs true|false] [--opt-out-reply TEXT|default] [--opt-in-reply TEXT|default] [--help-reply TEXT|default]',
    run: async (args, context) => {
      const { values } = parseOptions(args, {
        required: ['company'],
        optional: ['status-callback', 'inbound-webhook', 'otp-ignores-opt-outs', 'opt-out-reply', 'opt-in-reply', 'help-reply'],
      });
      const change: MessagingSettingsChange = {};
      if (values['status-callback'] !== undefined) change.statusCallbackUrl = statusCallback(values['status-callback'], context);
      if (values['inbound-webhook'] !== undefined) change.inboundWebhookUrl = statusCallback(values['inbound-webhook'], context, '--inbound-webhook');
      if (values['otp-ignores-opt-outs'] !== undefined) change.otpIgnoresOptOuts = booleanOf('otp-ignores-opt-outs', values['otp-ignores-opt-outs']);
      if (values['opt-out-reply'] !== undefined) change.optOutReply = replyText(values['opt-out-reply'], '--opt-out-reply');
      if (values['opt-in-reply'] !== undefined) change.optInReply = replyText(values['opt-in-reply'], '--opt-in-reply');
      if (values['help-reply'] !== undefined) change.helpReply = replyText(values['help-reply'], '--help-reply');
      const messaging = await settings(context);
      if (!(await messaging.get(values.company))) throw new InvalidArgumentError(`no company ${values.company}`);
      const view = await messaging.update(values.company, change);
      return { company_id: values.company, ...messagingSettingsJson(view) };
    },
  },
};

/** A keyword reply as stored: "default" is null (the CTIA wording). */
function replyText(text: string, option: string): string | null {
  if (text === 'default') return null;
  const reply = keywordReplyText(text);
  if (reply === null) throw new InvalidArgumentError(`${option} must be a text of 1 to ${MAX_KEYWORD_REPLY_LENGTH} characters, or "default"`);
  return reply;
}
