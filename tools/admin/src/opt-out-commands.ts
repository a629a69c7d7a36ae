import { AuditLogRepository, InvalidArgumentError, OtpOptOutSetting } from '@mp/accounts';
import { OptOutStore } from '@mp/messaging';
import { checkSender, parsePhoneNumber } from '@mp/messaging-domain';
import { booleanOf, parseOptions } from './arguments';
import type { AdminContext, Command } from './commands';

const store = async (context: AdminContext) => new OptOutStore(await context.database());

function phoneOf(text: string): string {
  const phone = parsePhoneNumber(text.trim(), { allowMissingPlus: true });
  if (!phone.ok) throw new InvalidArgumentError(`--phone must be a phone number in E.164 (got "${text}")`);
  return phone.e164;
}

/** The company's number or sender id, as a send's `from` names it; absent: all of its numbers. */
function numberOf(text: string | undefined): string | null {
  if (text === undefined) return null;
  const checked = checkSender(text);
  if (!checked.ok) throw new InvalidArgumentError(`--number must be a number or sender id of the company (got "${text}")`);
  return checked.sender;
}

/** A company's suppression list (opt_outs) and whether its OTPs follow it. */
export const OPT_OUT_COMMANDS: Record<string, Command> = {
  'opt-out:add': {
    summary: "put a phone on a company's suppression list, for one of its numbers (--number) or all of them",
    usage: 'opt-out:add --company ID --phone +447911123456 [--number +447400900123]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'phone'], optional: ['number'] });
      const entry = { phone: phoneOf(values.phone), number: numberOf(values.number), source: 'admin' as const };
      return { ...entry, ...(await (await store(context)).add(values.company, [entry])) };
    },
  },
  'opt-out:remove': {
    summary: 'take a phone off the list: the entry for --number, or every entry of the phone',
    usage: 'opt-out:remove --company ID --phone +447911123456 [--number +447400900123]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company', 'phone'], optional: ['number'] });
      const number = values.number === undefined ? undefined : numberOf(values.number);
      return (await store(context)).remove(values.company, phoneOf(values.phone), number);
    },
  },
  'opt-out:list': {
    summary: "list a company's suppression list, newest first (the first 1000, or those of --phone)",
    usage: 'opt-out:list --company ID [--phone +447911123456]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company'], optional: ['phone'] });
      const phone = values.phone === undefined ? {} : { phone: phoneOf(values.phone) };
      return (await store(context)).list(values.company, { ...phone, limit: 1000 });
    },
  },
  'company:otp-opt-outs': {
    summary:
      "show, or set, whether the company's OTPs go to numbers on its suppression list (default false: refused like any send); true is the company's own compliance choice",
    usage: 'company:otp-opt-outs --company ID [--ignore true|false]',
    run: async (args, context) => {
      const { values } = parseOptions(args, { required: ['company'], optional: ['ignore'] });
      const db = await context.database();
      const setting = new OtpOptOutSetting(db, new AuditLogRepository(db));
      const ignore = values.ignore === undefined ? await setting.get(values.company) : await setting.set(values.company, booleanOf('ignore', values.ignore));
      if (ignore === null) throw new InvalidArgumentError(`no company ${values.company}`);
      return { company_id: values.company, otp_ignores_opt_outs: ignore };
    },
  },
};
