import { TemplateRepository } from '@mp/persistence';
import { DEFAULT_OTP_TEMPLATE, templateMentionsCode } from '@mp/otp-domain';
import type { DataSource } from 'typeorm';
import { OtpTemplateError } from './otp-errors';

/** A template of the application by id, an inline template text, or none (the default text). */
export type OtpTemplateChoice = { id: number } | { text: string } | null;

/**
 * The template text an OTP is rendered from: the application's template in `lang` (else `en`,
 * else its own text), an inline text, or the default. One that does not show the code is refused.
 */
export async function otpTemplateText(db: DataSource, applicationId: string, choice: OtpTemplateChoice, lang: string): Promise<string> {
  let text = DEFAULT_OTP_TEMPLATE;
  if (choice && 'id' in choice) {
    const found = await new TemplateRepository(db).findText(applicationId, choice.id, lang);
    if (!found) throw new OtpTemplateError(`template ${choice.id} is not a template of this application`);
    text = found.text;
  } else if (choice) {
    text = choice.text;
  }
  if (!templateMentionsCode(text)) throw new OtpTemplateError('template must contain {{otp}} or {{code}}');
  return text;
}
