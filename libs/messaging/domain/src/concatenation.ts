import { GSM_ESCAPE, gsmBasicCharacter, gsmExtensionCharacter } from './gsm-alphabet';
import { encodeGsm7, encodeUcs2, SmsSplit, SmsTextError } from './sms-text';

/** What the SMPP dispatcher sends for one part of a message. */
export interface EncodedPart {
  index: number;
  total: number;
  /** 0 = SMSC default alphabet (GSM-7, unpacked), 8 = UCS-2. */
  dataCoding: 0 | 8;
  /** User data header `05 00 03 ref total index` when the message has several parts, else null. */
  udh: Buffer | null;
  /** The encoded text of the part, without the header. */
  payload: Buffer;
}

export interface ConcatenationHeader {
  reference: number;
  total: number;
  index: number;
}

/** Information element identifiers of concatenated short messages (3GPP TS 23.040 §9.2.3.24). */
const IEI_CONCAT_8BIT = 0x00;
const IEI_CONCAT_16BIT = 0x08;
/** A message of more parts than this cannot say so in one octet. */
const MAX_PARTS = 255;

/** Encodes each part of a split; the parts of one message share `concatReference` (0..255). */
export function encodeSmsParts(split: SmsSplit, concatReference: number): EncodedPart[] {
  if (!Number.isInteger(concatReference) || concatReference < 0 || concatReference > 0xff) {
    throw new RangeError('concatReference must be an integer from 0 to 255');
  }
  const total = split.parts.length;
  if (total > MAX_PARTS) throw new RangeError(`a message has at most ${MAX_PARTS} parts`);
  const gsm = split.encoding === 'GSM-7';
  return split.parts.map((part) => ({
    index: part.index,
    total,
    dataCoding: gsm ? 0 : 8,
    udh: total > 1 ? Buffer.from([0x05, IEI_CONCAT_8BIT, 0x03, concatReference, total, part.index]) : null,
    payload: gsm ? encodeGsm7(part.text) : encodeUcs2(part.text),
  }));
}

/**
 * Reads the concatenation element of a user data header (length octet first, as encodeSmsParts
 * writes it; bytes after the header, such as the text, are ignored). Handles the 8-bit (IEI 00) and
 * 16-bit (IEI 08) reference forms. Null when there is none, the header is cut short, or the element
 * is one the standard says to ignore (0 parts, index 0 or beyond the total).
 */
export function decodeConcatenationHeader(udh: Buffer): ConcatenationHeader | null {
  if (udh.length < 1 || udh.length < 1 + udh[0]) return null;
  const end = 1 + udh[0];
  for (let at = 1; at + 2 <= end;) {
    const iei = udh[at];
    const length = udh[at + 1];
    const data = at + 2;
    if (data + length > end) return null;
    const header = readConcatenationElement(iei, udh.subarray(data, data + length));
    if (header) return header;
    at = data + length;
  }
  return null;
}

/** Inverse of encodeGsm7: unpacked septets, 0x1B escaping into the extension table. */
export function decodeGsm7(bytes: Buffer): string {
  let text = '';
  for (let at = 0; at < bytes.length; at++) {
    if (bytes[at] !== GSM_ESCAPE) {
      text += basicCharacter(bytes[at]);
      continue;
    }
    at++;
    if (at >= bytes.length) throw new SmsTextError('GSM-7 text ends with an escape');
    text += escapedCharacter(bytes[at]);
  }
  return text;
}

/** Inverse of encodeUcs2: UTF-16 big-endian. */
export function decodeUcs2(bytes: Buffer): string {
  if (bytes.length % 2 !== 0) throw new SmsTextError('UCS-2 text must have an even number of octets');
  return Buffer.from(bytes).swap16().toString('utf16le');
}

function readConcatenationElement(iei: number, data: Buffer): ConcatenationHeader | null {
  let header: ConcatenationHeader | null = null;
  if (iei === IEI_CONCAT_8BIT && data.length === 3) {
    header = { reference: data[0], total: data[1], index: data[2] };
  } else if (iei === IEI_CONCAT_16BIT && data.length === 4) {
    header = { reference: data.readUInt16BE(0), total: data[2], index: data[3] };
  }
  if (!header || header.total < 1 || header.index < 1 || header.index > header.total) return null;
  return header;
}

function basicCharacter(code: number): string {
  const character = gsmBasicCharacter(code);
  if (character === undefined) throw new SmsTextError(`0x${code.toString(16)} is not a GSM-7 septet`);
  return character;
}

/**
 * An escaped septet. TS 23.038 §6.2.1.1: a code the extension table lacks is shown as the basic
 * character of that code; 0x1B 0x1B (reserved for another table) is shown as a space.
 */
function escapedCharacter(code: number): string {
  if (code === GSM_ESCAPE) return ' ';
  return gsmExtensionCharacter(code) ?? basicCharacter(code);
}
