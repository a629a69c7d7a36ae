import { moneyToJson, parsePriceRule } from '@mp/billing-domain';
import { ApplicationRepository } from './application.repository';
import { InvalidArgumentError, NotFoundError } from './errors';
import { PriceRepository } from './price.repository';
import { TemplateRepository } from './template.repository';

const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;
/** Template ids are PostgreSQL integers. */
const MAX_TEMPLATE_ID = 2_147_483_647;

/** A template text and its language, checked as the database would (a clear error instead). */
function templateText(input: { text: string; lang?: string }): { lang: string; text: string } {
  const lang = (input.lang ?? 'en').trim();
  if (!LANG.test(lang)) throw new InvalidArgumentError('lang must be a language code such as en or pt-BR');
  if (input.text.length < 1 || input.text.length > 1600) throw new InvalidArgumentError('text must be 1 to 1600 characters');
  if (input.text.includes('\u0000')) throw new InvalidArgumentError('text must not contain a NUL character');
  return { lang, text: input.text };
}

/** What messages are made from and charged at: templates per application, prices per route. */
export class CatalogService {
  constructor(
    private readonly applications: ApplicationRepository,
    private readonly templates: TemplateRepository,
    private readonly prices: PriceRepository,
  ) {}

  /** A new template of the application, with its text in one language (`en` unless given). */
  async createTemplate(input: { appid: string; text: string; lang?: string }): Promise<{ template_id: number; lang: string }> {
    const { lang, text } = templateText(input);
    const application = await this.applications.findByAppid(input.appid);
    if (!application) throw new NotFoundError(`no application ${input.appid}`);
    const template = await this.templates.insert({ applicationId: application.id, lang, text });
    return { template_id: template.id, lang };
  }

  /**
   * The text of an existing template in another language (or a new text for a language it has):
   * an OTP sent with `template: <id>` and `lang` renders it, falling back to `en`, then to the
   * text the template was created with.
   */
  async translateTemplate(input: { template: string; lang: string; text: string }): Promise<{ template_id: number; lang: string; created: boolean }> {
    const id = /^[1-9][0-9]{0,9}$/.test(input.template.trim()) ? Number(input.template.trim()) : Number.NaN;
    if (!(id <= MAX_TEMPLATE_ID)) throw new InvalidArgumentError('template must be a template id (a positive integer)');
    const { lang, text } = templateText(input);
    const set = await this.templates.setText(id, lang, text);
    if (!set) throw new NotFoundError(`no template ${id}`);
    return { template_id: id, lang, created: set.created };
  }

  async setPrice(input: { prefix: string; route: string; price: string }) {
    let rule;
    try {
      rule = parsePriceRule(input);
    } catch (error) {
      throw new InvalidArgumentError((error as Error).message);
    }
    await this.prices.upsert(rule);
    return { prefix: rule.prefix, route: rule.route, price: moneyToJson(rule.price) };
  }
}
