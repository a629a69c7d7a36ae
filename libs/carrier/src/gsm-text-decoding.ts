import { encodings } from 'smpp';

/**
 * The smpp package decodes the text of every deliver_sm with data_coding 0 — every delivery
 * receipt — through its GSM 03.38 coder, which lists its table's keys and builds the string a
 * character at a time on each call, a cost paid per receipt (docs/decisions/0018-per-part-pdus-coded-directly.md).
 * The package's encodings registry (`smpp.encodings`, where its README has
 * users change the default encoding) takes this decoder instead: the same output (the unit test
 * compares the two on every octet pair), read through tables made once from the package's own.
 */
export function useTableGsmDecoding(): void {
  if (encodings.ASCII.decode === decodeGsmText) return;
  const packageDecode = encodings.ASCII.decode;
  tables ??= buildTables(packageDecode);
  encodings.ASCII.decode = decodeGsmText;
}

interface Tables {
  /** The UTF-16 unit each octet shows as. */
  basic: Uint16Array;
  /** The unit 0x1B followed by each octet shows as, or 0 when the pair shows as two characters. */
  escaped: Uint16Array;
}

let tables: Tables | undefined;

function buildTables(decode: (octets: Buffer) => string): Tables {
  const basic = new Uint16Array(256);
  const escaped = new Uint16Array(256);
  for (let octet = 0; octet < 256; octet += 1) {
    basic[octet] = decode(Buffer.from([octet])).charCodeAt(0);
    const pair = decode(Buffer.from([0x1b, octet]));
    escaped[octet] = pair.length === 1 ? pair.charCodeAt(0) : 0;
  }
  return { basic, escaped };
}

/** Decodes unpacked GSM 03.38 octets as encodings.ASCII.decode of the smpp package does. */
export function decodeGsmText(octets: Buffer): string {
  const { basic, escaped } = tables as Tables;
  const utf16 = Buffer.allocUnsafe(octets.length * 2);
  let length = 0;
  for (let at = 0; at < octets.length; at += 1) {
    let unit = basic[octets[at]];
    if (octets[at] === 0x1b && at + 1 < octets.length && escaped[octets[at + 1]] !== 0) {
      at += 1;
      unit = escaped[octets[at]];
    }
    utf16[length++] = unit & 0xff;
    utf16[length++] = unit >>> 8;
  }
  return utf16.toString('utf16le', 0, length);
}
