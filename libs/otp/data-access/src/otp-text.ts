import type { TemplateRepository } from '@mp/accounts';
import { DEFAULT_OTP_TEMPLATE, templateMentionsCode, type OtpChannel } from '@mp/otp-domain';
import { OtpTemplateError } from './otp-errors';

/** A template of the application by id, an inline template text, or none (the default text). */
export type OtpTemplateChoice = { id: number } | { text: string } | null;

/** The language of the default text. */
const DEFAULT_TEMPLATE_LANG = 'en';

/**
 * The template text an OTP is rendered from, and the language it is in (what `{{lang}}` shows):
 * the application's template in `lang`, else in `en`, else in the language it was created with;
 * an inline text, in `lang` as the caller says; or the default text, in English. One that does not
 * show the code is refused. On WhatsApp Meta renders its own template in `lang`, so that is the
 * language used whatever the text.
 */
export async function otpTemplateText(
  templates: TemplateRepository,
  applicationId: string,
  choice: OtpTemplateChoice,
  lang: string,
  channel: OtpChannel = 'sms',
): Promise<{ text: string; lang: string }> {
  let found = { text: DEFAULT_OTP_TEMPLATE, lang: DEFAULT_TEMPLATE_LANG };
  if (choice && 'id' in choice) {
    const template = await templates.findText(applicationId, choice.id, lang);
    if (!template) throw new OtpTemplateError(`template ${choice.id} is not a template of this application`);
    found = template;
  } else if (choice) {
    found = { text: choice.text, lang };
  }
  if (!templateMentionsCode(found.text)) throw new OtpTemplateError('template must contain {{otp}} or {{code}}');
  return channel === 'whatsapp' ? { text: found.text, lang } : found;
}
