import { gsmSeptets } from './gsm-alphabet';

export type SmsEncoding = 'GSM-7' | 'UCS-2';

/** The longest text the API takes, counted in Unicode code points ([...text].length). */
export const MAX_SMS_CHARACTERS = 1600;

/** Units one part holds (decisions.md): alone, or as one of several (the rest is the concatenation header). */
const CAPACITY: Readonly<Record<SmsEncoding, { single: number; multi: number }>> = {
  'GSM-7': { single: 160, multi: 153 },
  'UCS-2': { single: 70, multi: 67 },
};

export interface SmsPart {
  /** 1-based. */
  index: number;
  /** The characters of this part. */
  text: string;
  /** Septets (GSM-7, an escaped character counts 2) or UTF-16 code units (UCS-2). */
  units: number;
}

export interface SmsSplit {
  encoding: SmsEncoding;
  parts: SmsPart[];
  /** Units of the whole text. */
  units: number;
  /** The first character (a whole code point) that forced UCS-2; null for GSM-7. */
  firstNonGsmCharacter: string | null;
}

export class SmsTextError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SmsTextError';
  }
}

/**
 * Splits a text into SMS parts the way it is sent, so the count charged is the count sent.
 * GSM 03.38 text: up to 160 septets is one part, else 153 per part; any other character makes the
 * whole text UCS-2: up to 70 units one part, else 67. A character (an escape pair, a surrogate pair)
 * never straddles two parts.
 */
export function splitSms(text: string): SmsSplit {
  const characters = checkedCharacters(text);
  const firstNonGsmCharacter = characters.find((character) => gsmSeptets(character) === null) ?? null;
  const encoding: SmsEncoding = firstNonGsmCharacter === null ? 'GSM-7' : 'UCS-2';
  const units = characters.map(encoding === 'GSM-7' ? gsmUnits : ucs2Units);
  const total = units.reduce((sum, count) => sum + count, 0);
  const { single, multi } = CAPACITY[encoding];
  const parts = fillParts(characters, units, total <= single ? single : multi);
  return { encoding, parts, units: total, firstNonGsmCharacter };
}

/** The number of parts a text is sent (and charged) as: the parts of splitSms. */
export function countSmsParts(text: string): number {
  return splitSms(text).parts.length;
}

/** GSM 03.38 default alphabet, unpacked: one octet per septet, an extension character as 0x1B + code. */
export function encodeGsm7(text: string): Buffer {
  const septets: number[] = [];
  for (const character of text) {
    const codes = gsmSeptets(character);
    if (!codes) throw new SmsTextError(`"${character}" is not in the GSM 03.38 alphabet`);
    septets.push(...codes);
  }
  return Buffer.from(septets);
}

/** UCS-2 as SMS sends it: UTF-16 big-endian (a character beyond the BMP as its surrogate pair). */
export function encodeUcs2(text: string): Buffer {
  return Buffer.from(text, 'utf16le').swap16();
}

function checkedCharacters(text: string): string[] {
  if (text.length === 0) throw new SmsTextError('message is required');
  const characters = [...text];
  if (characters.length > MAX_SMS_CHARACTERS) {
    throw new SmsTextError(`message must be at most ${MAX_SMS_CHARACTERS} characters`);
  }
  return characters;
}

function gsmUnits(character: string): number {
  return gsmSeptets(character)?.length ?? 0;
}

function ucs2Units(character: string): number {
  return character.length;
}

/** Fills parts in order; a character that does not fit whole starts the next part. */
function fillParts(characters: readonly string[], units: readonly number[], capacity: number): SmsPart[] {
  const parts: SmsPart[] = [];
  let current: SmsPart = { index: 1, text: '', units: 0 };
  characters.forEach((character, i) => {
    if (current.units + units[i] > capacity) {
      parts.push(current);
      current = { index: current.index + 1, text: '', units: 0 };
    }
    current.text += character;
    current.units += units[i];
  });
  parts.push(current);
  return parts;
}
