// What the preview panel says in words: the character that forces UCS-2, and the cost.
import type { TemplatePreview } from '../../api/applications';

/** Characters a reader cannot see: named by their code point as well. */
const INVISIBLE = /^[\s\u00a0\u00ad\u200b-\u200f\u2028-\u202f\u2060-\u206f\ufeff]$/u;

export function codePoint(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** “ż” at position 5 forces UCS-2; null for GSM-7 text. */
export function ucs2Reason(preview: Pick<TemplatePreview, 'ucs2_character'>): string | null {
  const found = preview.ucs2_character;
  if (!found) return null;
  const shown = INVISIBLE.test(found.character) ? `“${found.character}” (${codePoint(found.character)})` : `“${found.character}”`;
  return `${shown} at position ${found.position} forces UCS-2`;
}

export function partsText(parts: number): string {
  return parts === 1 ? '1 part' : `${parts} parts`;
}

/** 0.0200 EUR (2 parts × 0.0100 EUR) */
export function costText(preview: Pick<TemplatePreview, 'cost' | 'price_per_part' | 'parts' | 'currency'>): string {
  const unit = preview.currency === '' ? '' : ` ${preview.currency}`;
  return `${preview.cost}${unit} (${partsText(preview.parts)} × ${preview.price_per_part}${unit})`;
}

/** How many characters a part holds for the encoding: alone, or as one of several. */
export function partCapacity(encoding: TemplatePreview['encoding'], parts: number): number {
  if (encoding === 'GSM-7') return parts === 1 ? 160 : 153;
  return parts === 1 ? 70 : 67;
}
