// The GSM 03.38 default alphabet (3GPP TS 23.038) as SMPP carries it with data_coding 0: one
// septet per octet ("unpacked"), an extension character as 0x1B followed by its code.

/** The basic table: the character of each septet 0x00..0x7F (0x1B is the escape to the extension table). */
const BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

/** The extension table: the character of 0x1B followed by each code. */
const EXTENSION: Readonly<Record<number, string>> = {
  0x0a: '\f',
  0x14: '^',
  0x28: '{',
  0x29: '}',
  0x2f: '\\',
  0x3c: '[',
  0x3d: '~',
  0x3e: ']',
  0x40: '|',
  0x65: '€',
};

const ESCAPE = 0x1b;
/** What an octet that is not a septet (0x80 and above) shows as. */
const INVALID = '?';

const ENCODE = new Map<string, number[]>();
for (let code = 0; code < BASIC.length; code += 1) if (code !== ESCAPE) ENCODE.set(BASIC[code], [code]);
for (const [code, char] of Object.entries(EXTENSION)) ENCODE.set(char, [ESCAPE, Number(code)]);
const UNKNOWN = ENCODE.get(INVALID) ?? [];

/**
 * The text of unpacked GSM septets. An escape followed by a code the extension table does not
 * define shows the basic character of that code, as TS 23.038 asks of a receiver; a trailing
 * escape shows nothing.
 */
export function decodeGsm(octets: Uint8Array): string {
  let text = '';
  for (let i = 0; i < octets.length; i += 1) {
    const octet = octets[i];
    if (octet === ESCAPE) {
      i += 1;
      if (i >= octets.length) break;
      const code = octets[i];
      text += EXTENSION[code] ?? (code === ESCAPE || code > 0x7f ? ' ' : BASIC[code]);
    } else {
      text += octet > 0x7f ? INVALID : BASIC[octet];
    }
  }
  return text;
}

/** Unpacked GSM septets of a text; characters outside the alphabet become '?'. */
export function encodeGsm(text: string): Buffer {
  // At most two octets a character, and a character is at least one UTF-16 unit.
  const octets = Buffer.allocUnsafe(text.length * 2);
  let length = 0;
  for (const char of text) for (const octet of ENCODE.get(char) ?? UNKNOWN) octets[length++] = octet;
  return octets.subarray(0, length);
}

/** Whether every character of a text is in the GSM alphabet (basic or extension table). */
export function isGsmText(text: string): boolean {
  for (const char of text) if (!ENCODE.has(char)) return false;
  return true;
}
