// Which part of an application's templates the URL shows: a language's tab, and the template
// open in the editor (`new` for one being written). Kept in the URL, so any view can be shared.
import type { Template, TemplateList } from '../../api/applications';

export interface TemplateSearch {
  lang?: string;
  /** A template's id, or `new`. */
  template?: number | 'new';
}

const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})?$/;

export function parseTemplateSearch(search: Record<string, unknown>): TemplateSearch {
  const lang = typeof search['lang'] === 'string' && LANG.test(search['lang']) ? search['lang'] : undefined;
  const raw = search['template'];
  const id = typeof raw === 'string' && /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : raw;
  const template = id === 'new' || (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) ? id : undefined;
  return { ...(lang ? { lang } : {}), ...(template ? { template } : {}) };
}

/** The tabs: every language a template has, and the one the URL names (a language being added). */
export function languageTabs(list: TemplateList, selected: string | undefined): string[] {
  return [...new Set([...list.languages, ...(selected ? [selected] : [])])].sort();
}

/** The language shown: the URL's, else en when a template has it, else the first there is. */
export function selectedLanguage(list: TemplateList, selected: string | undefined): string {
  if (selected) return selected;
  return list.languages.includes('en') ? 'en' : (list.languages[0] ?? 'en');
}

export function textIn(template: Template, lang: string): string | null {
  return template.texts.find((text) => text.lang === lang)?.text ?? null;
}

/** The text an OTP in `lang` would use when the template has none in it: en, else its own. */
export function fallbackOf(template: Template, lang: string): { lang: string; text: string } | null {
  if (textIn(template, lang) !== null) return null;
  const chosen = template.texts.find((text) => text.lang === 'en') ?? template.texts.find((text) => text.original) ?? template.texts[0];
  return chosen ? { lang: chosen.lang, text: chosen.text } : null;
}
