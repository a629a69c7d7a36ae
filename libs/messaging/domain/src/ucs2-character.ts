import { gsmSeptets } from './gsm-alphabet';

/** The character that makes a text UCS-2, and where it is. */
export interface Ucs2Character {
  /** One whole character (code point): an emoji is one, not two halves of a surrogate pair. */
  character: string;
  /** 1-based, counted in characters (code points), as a reader counts them. */
  position: number;
}

/**
 * The first character of the text outside the GSM 03.38 alphabet (its basic and extension tables):
 * the one that makes splitSms send the whole text as UCS-2. Null for a GSM-7 text.
 */
export function findUcs2Character(text: string): Ucs2Character | null {
  let position = 0;
  for (const character of text) {
    position += 1;
    if (gsmSeptets(character) === null) return { character, position };
  }
  return null;
}
