// The GSM 03.38 default alphabet (3GPP TS 23.038) as SMPP carries it with data_coding 0: one
// septet per octet ("unpacked"), an extension character as 0x1B followed by its code.

/** The basic table: the character of each septet 0x00..0x7F (0x1B is the escape to the extension table). */
const BASIC = '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?' + '¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';

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

/** The UTF-16 unit of each basic septet (every character of both tables is in the BMP). */
const BASIC_UNITS = Uint16Array.from(BASIC, (char) => char.charCodeAt(0));
const SPACE = 0x20;
const QUESTION_MARK = INVALID.charCodeAt(0);

/** Per UTF-16 unit: its basic septet, 0x100 | its extension code, or -1 when neither table has it. */
const ENCODE = new Int16Array(0x10000).fill(-1);
for (let code = 0; code < BASIC.length; code += 1) if (code !== ESCAPE) ENCODE[BASIC_UNITS[code]] = code;
for (const [code, char] of Object.entries(EXTENSION)) ENCODE[char.charCodeAt(0)] = 0x100 | Number(code);

/**
 * The text of unpacked GSM septets. An escape followed by a code the extension table does not
 * define shows the basic character of that code, as TS 23.038 asks of a receiver; a trailing
 * escape shows nothing. Built as UTF-16 in one buffer: appending a character at a time would make
 * a chain of string pieces per message, which the simulator keeps (its inbox) at thousands a second.
 */
export function decodeGsm(octets: Uint8Array): string {
  const utf16 = Buffer.allocUnsafe(octets.length * 2);
  let length = 0;
  for (let i = 0; i < octets.length; i += 1) {
    const octet = octets[i];
    let unit: number;
    if (octet === ESCAPE) {
      i += 1;
      if (i >= octets.length) break;
      const code = octets[i];
      const extension = EXTENSION[code];
      unit = extension !== undefined ? extension.charCodeAt(0) : code === ESCAPE || code > 0x7f ? SPACE : BASIC_UNITS[code];
    } else {
      unit = octet > 0x7f ? QUESTION_MARK : BASIC_UNITS[octet];
    }
    utf16[length++] = unit & 0xff;
    utf16[length++] = unit >>> 8;
  }
  return utf16.toString('utf16le', 0, length);
}

/** Unpacked GSM septets of a text; characters outside the alphabet (a surrogate pair is one) become '?'. */
export function encodeGsm(text: string): Buffer {
  // At most two octets a character, and a character is at least one UTF-16 unit.
  const octets = Buffer.allocUnsafe(text.length * 2);
  let length = 0;
  for (let i = 0; i < text.length; i += 1) {
    const unit = text.charCodeAt(i);
    const septet = ENCODE[unit];
    if (septet >= 0x100) {
      octets[length++] = ESCAPE;
      octets[length++] = septet & 0xff;
    } else if (septet >= 0) {
      octets[length++] = septet;
    } else {
      octets[length++] = ENCODE[QUESTION_MARK];
      if (isSurrogatePair(text, i)) i += 1;
    }
  }
  return octets.subarray(0, length);
}

/** Whether every character of a text is in the GSM alphabet (basic or extension table). */
export function isGsmText(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) if (ENCODE[text.charCodeAt(i)] < 0) return false;
  return true;
}

function isSurrogatePair(text: string, at: number): boolean {
  const high = text.charCodeAt(at);
  const low = text.charCodeAt(at + 1);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
