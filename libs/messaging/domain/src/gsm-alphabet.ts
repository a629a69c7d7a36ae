/**
 * The GSM 03.38 default alphabet (3GPP TS 23.038 §6.2.1): the character at index N is septet N.
 * 0x1B is not a character but the escape to the extension table (§6.2.1.1), written here as ''.
 * 0x09 is capital Ç: the standard's table says so, although some handsets draw it small.
 */
const BASIC_TABLE: readonly string[] = [
  // 0x00-0x0F
  '@',
  '£',
  '$',
  '¥',
  'è',
  'é',
  'ù',
  'ì',
  'ò',
  'Ç',
  '\n',
  'Ø',
  'ø',
  '\r',
  'Å',
  'å',
  // 0x10-0x1F
  'Δ',
  '_',
  'Φ',
  'Γ',
  'Λ',
  'Ω',
  'Π',
  'Ψ',
  'Σ',
  'Θ',
  'Ξ',
  '',
  'Æ',
  'æ',
  'ß',
  'É',
  // 0x20-0x2F
  ' ',
  '!',
  '"',
  '#',
  '¤',
  '%',
  '&',
  "'",
  '(',
  ')',
  '*',
  '+',
  ',',
  '-',
  '.',
  '/',
  // 0x30-0x3F
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
  ':',
  ';',
  '<',
  '=',
  '>',
  '?',
  // 0x40-0x4F
  '¡',
  'A',
  'B',
  'C',
  'D',
  'E',
  'F',
  'G',
  'H',
  'I',
  'J',
  'K',
  'L',
  'M',
  'N',
  'O',
  // 0x50-0x5F
  'P',
  'Q',
  'R',
  'S',
  'T',
  'U',
  'V',
  'W',
  'X',
  'Y',
  'Z',
  'Ä',
  'Ö',
  'Ñ',
  'Ü',
  '§',
  // 0x60-0x6F
  '¿',
  'a',
  'b',
  'c',
  'd',
  'e',
  'f',
  'g',
  'h',
  'i',
  'j',
  'k',
  'l',
  'm',
  'n',
  'o',
  // 0x70-0x7F
  'p',
  'q',
  'r',
  's',
  't',
  'u',
  'v',
  'w',
  'x',
  'y',
  'z',
  'ä',
  'ö',
  'ñ',
  'ü',
  'à',
];

/** The GSM 03.38 extension table (3GPP TS 23.038 §6.2.1.1): each is sent as 0x1B then its code. */
const EXTENSION_TABLE: readonly (readonly [string, number])[] = [
  ['\f', 0x0a], // page break (form feed)
  ['^', 0x14],
  ['{', 0x28],
  ['}', 0x29],
  ['\\', 0x2f],
  ['[', 0x3c],
  ['~', 0x3d],
  [']', 0x3e],
  ['|', 0x40],
  ['€', 0x65],
];

export const GSM_ESCAPE = 0x1b;

const BASIC_CODES = new Map(BASIC_TABLE.flatMap((character, code) => (character ? [[character, code] as const] : [])));
const EXTENSION_CODES = new Map(EXTENSION_TABLE);
const EXTENSION_CHARACTERS = new Map(EXTENSION_TABLE.map(([character, code]) => [code, character]));

/** The septets of one character (a code point) in GSM 03.38: [code] or [0x1B, code]; null if it has none. */
export function gsmSeptets(character: string): readonly number[] | null {
  const basic = BASIC_CODES.get(character);
  if (basic !== undefined) return [basic];
  const extension = EXTENSION_CODES.get(character);
  return extension === undefined ? null : [GSM_ESCAPE, extension];
}

/** The character of a septet of the basic table; '' for the escape, undefined beyond 0x7F. */
export function gsmBasicCharacter(code: number): string | undefined {
  return BASIC_TABLE[code];
}

/** The character of an escaped septet, or undefined when the extension table has none there. */
export function gsmExtensionCharacter(code: number): string | undefined {
  return EXTENSION_CHARACTERS.get(code);
}
