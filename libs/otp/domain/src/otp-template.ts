/** The text of an OTP when the application has no template of its own. */
export const DEFAULT_OTP_TEMPLATE = 'Your {{app_name}} verification code is {{otp}}. It expires in {{expiry_minutes}} minutes.';

export type OtpChannel = 'sms' | 'whatsapp';

export interface OtpTemplateInput {
  code: string;
  appName: string;
  expiresAt: Date;
  expiryMinutes: number;
  /** The application's IANA time zone, such as Europe/Paris, for the expiry time. */
  timeZone: string;
  recipient: string;
  channel: OtpChannel;
  lang: string;
  customVars?: Readonly<Record<string, string | number | boolean>>;
}

/** `{{name}}` or `{{ name }}`; names are case-sensitive. */
const VARIABLE = /\{\{\s*([^{}\s]+)\s*\}\}/g;
const CODE_VARIABLES: readonly string[] = ['otp', 'code'];

/**
 * Replaces each variable with its value in one pass, so a value is inserted as it is: a value
 * that contains `{{otp}}` or `$&` is not rendered again. A variable nobody defined renders as
 * nothing rather than failing the send: a typo in a template should not stop codes going out.
 */
export function renderOtpTemplate(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(VARIABLE, (_match, name: string) => (Object.hasOwn(variables, name) ? variables[name] : ''));
}

/** Whether the template shows the code, without which it is useless: callers refuse it. */
export function templateMentionsCode(text: string): boolean {
  return [...text.matchAll(VARIABLE)].some(([, name]) => CODE_VARIABLES.includes(name));
}

/**
 * The variables a template may use. Several have two names so templates written for other OTP
 * services work unchanged. The built-in variables are applied last: a custom variable named
 * `otp` cannot replace the code.
 */
export function otpTemplateVariables(input: OtpTemplateInput): Record<string, string> {
  const custom = Object.entries(input.customVars ?? {}).map(([name, value]) => [name, String(value)]);
  const expiry = zonedDateTime(input.expiresAt, input.timeZone);
  return {
    ...Object.fromEntries(custom),
    otp: input.code,
    code: input.code,
    app_name: input.appName,
    appname: input.appName,
    expires_at: expiry.time,
    expires_time: expiry.time,
    expires_full: `${expiry.date} ${expiry.time} ${input.timeZone}`,
    expiry_minutes: String(input.expiryMinutes),
    recipient: input.recipient,
    phone: input.recipient,
    channel: input.channel,
    lang: input.lang,
  };
}

const formatters = new Map<string, Intl.DateTimeFormat>();
/** The last minute formatted per time zone: every OTP of a minute shows the same expiry minute, and formatToParts is slow. */
const lastFormatted = new Map<string, { minute: number; value: { date: string; time: string } }>();
const MINUTE_MS = 60_000;

/** `YYYY-MM-DD` and `HH:MM` (24 h) of an instant in a time zone; RangeError for an unknown zone. */
function zonedDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const minute = Math.floor(instant.getTime() / MINUTE_MS);
  const last = lastFormatted.get(timeZone);
  if (last?.minute === minute) return last.value;
  const parts = Object.fromEntries(
    formatter(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const value = {
    date: `${parts.year.padStart(4, '0')}-${parts.month}-${parts.day}`,
    time: `${parts.hour}:${parts.minute}`,
  };
  lastFormatted.set(timeZone, { minute, value });
  return value;
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    // h23, not hour12: false, which some engines render as 24:05 just after midnight.
    format = new Intl.DateTimeFormat('en-US-u-nu-latn', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, format);
  }
  return format;
}
