import { DEFAULT_OTP_TEMPLATE } from '@mp/otp-domain';
import type { TemplateRepository } from '@mp/accounts';
import { OtpTemplateError } from './otp-errors';
import { otpTemplateText } from './otp-text';

// Only a template id reads the database (see accounts.integration-spec.ts and otp.e2e-spec.ts).
const noDatabase = {} as TemplateRepository;

describe('otpTemplateText', () => {
  it('sends the default text in English, whatever language was asked for', async () => {
    expect(await otpTemplateText(noDatabase, 'app', null, 'pt')).toEqual({ text: DEFAULT_OTP_TEMPLATE, lang: 'en' });
  });

  it("takes an inline text to be in the caller's language", async () => {
    expect(await otpTemplateText(noDatabase, 'app', { text: 'Código {{otp}}' }, 'pt')).toEqual({ text: 'Código {{otp}}', lang: 'pt' });
  });

  it("uses the caller's language on WhatsApp, where Meta renders its own template", async () => {
    expect(await otpTemplateText(noDatabase, 'app', null, 'pt-BR', 'whatsapp')).toEqual({ text: DEFAULT_OTP_TEMPLATE, lang: 'pt-BR' });
  });

  it('refuses a text that does not show the code', async () => {
    await expect(otpTemplateText(noDatabase, 'app', { text: 'Hello' }, 'en')).rejects.toBeInstanceOf(OtpTemplateError);
  });
});
