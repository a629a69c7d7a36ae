import type { TemplateList } from '../../api/applications';
import { fallbackOf, languageTabs, parseTemplateSearch, selectedLanguage, textIn } from './template-view';

const at = '2026-11-26T10:00:00Z';
const list: TemplateList = {
  languages: ['en', 'pl'],
  items: [
    {
      template_id: 7,
      texts: [
        { lang: 'pl', text: 'Kod {{otp}}', original: true, created_at: at },
        { lang: 'en', text: 'Code {{otp}}', original: false, created_at: at },
      ],
    },
    { template_id: 9, texts: [{ lang: 'pl', text: 'Twój kod {{otp}}', original: true, created_at: at }] },
  ],
};

describe('the templates view in the URL', () => {
  it('keeps a valid language and template (an id or new), and drops anything else', () => {
    expect(parseTemplateSearch({ lang: 'pt-BR', template: '12' })).toEqual({ lang: 'pt-BR', template: 12 });
    expect(parseTemplateSearch({ lang: 'pt-BR', template: 12 })).toEqual({ lang: 'pt-BR', template: 12 });
    expect(parseTemplateSearch({ template: 1.5 })).toEqual({});
    expect(parseTemplateSearch({ template: 'new' })).toEqual({ template: 'new' });
    expect(parseTemplateSearch({ lang: 'Polish', template: '0' })).toEqual({});
    expect(parseTemplateSearch({ lang: 5, template: '-1' })).toEqual({});
  });

  it('shows a tab per language, with the one being added, and en first when there is no choice', () => {
    expect(languageTabs(list, undefined)).toEqual(['en', 'pl']);
    expect(languageTabs(list, 'de')).toEqual(['de', 'en', 'pl']);
    expect(selectedLanguage(list, undefined)).toBe('en');
    expect(selectedLanguage({ items: [], languages: ['pl'] }, undefined)).toBe('pl');
    expect(selectedLanguage({ items: [], languages: [] }, undefined)).toBe('en');
  });

  it('says which text a send in a language without one would use: en, else the template’s own', () => {
    expect(textIn(list.items[0], 'en')).toBe('Code {{otp}}');
    expect(fallbackOf(list.items[0], 'de')).toEqual({ lang: 'en', text: 'Code {{otp}}' });
    expect(fallbackOf(list.items[1], 'en')).toEqual({ lang: 'pl', text: 'Twój kod {{otp}}' });
    expect(fallbackOf(list.items[1], 'pl')).toBeNull();
  });
});
