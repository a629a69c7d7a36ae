import { decodeConcatenationHeader, decodeGsm7, decodeUcs2 } from './concatenation';
import { SmsTextError } from './sms-text';

/** The user data of one deliver_sm that is not a receipt, as the carrier read it. */
export interface InboundUserData {
  esmClass: number;
  dataCoding: number;
  /** short_message (or message_payload): the UDH first when esm_class has the UDHI bit. */
  userData: Buffer;
  /** The SAR TLVs, when present: an alternative to a concatenation UDH. */
  sar: { reference: number; total: number; sequence: number } | null;
}

/** Where a part sits in its message: its siblings share `reference` and `total`. */
export interface InboundConcatenation {
  reference: number;
  total: number;
  index: number;
}

/** One part's text, and its place when it is one of several. */
export interface InboundPart {
  text: string;
  /** Null for a message of one part. */
  concatenation: InboundConcatenation | null;
}

/** esm_class bit saying short_message begins with a user data header. */
const UDH_INDICATOR = 0x40;

/**
 * Reads a mobile-originated part: the concatenation header (UDH IEI 00 or 08) or else the SAR
 * TLVs, and the text in the coding data_coding names. 0 (SMSC default) is GSM-7 unpacked, 8 is
 * UCS-2, 1 IA5 and 3 Latin-1 are read as Latin-1; anything else throws SmsTextError.
 */
export function readInboundPart(data: InboundUserData): InboundPart {
  let body = data.userData;
  let concatenation: InboundConcatenation | null = null;
  if (data.esmClass & UDH_INDICATOR && body.length > 0) {
    const headerLength = 1 + body[0];
    if (headerLength > body.length) throw new SmsTextError('the user data header is longer than the user data');
    concatenation = decodeConcatenationHeader(body.subarray(0, headerLength));
    body = body.subarray(headerLength);
  }
  if (!concatenation && data.sar && data.sar.total > 1 && data.sar.sequence >= 1 && data.sar.sequence <= data.sar.total) {
    concatenation = { reference: data.sar.reference, total: data.sar.total, index: data.sar.sequence };
  }
  if (concatenation?.total === 1) concatenation = null;
  return { text: decodeText(data.dataCoding, body), concatenation };
}

function decodeText(dataCoding: number, bytes: Buffer): string {
  switch (dataCoding) {
    case 0:
      return decodeGsm7(bytes);
    case 8:
      return decodeUcs2(bytes);
    case 1:
    case 3:
      return bytes.toString('latin1');
    default:
      throw new SmsTextError(`data_coding ${dataCoding} is not supported`);
  }
}

/**
 * The whole text of a message once every part 1..total is there (parts in any order, a repeated
 * index counted once); null while some are missing.
 */
export function joinInboundParts(total: number, parts: ReadonlyArray<{ index: number; text: string }>): string | null {
  const byIndex = new Map<number, string>();
  for (const part of parts) if (part.index >= 1 && part.index <= total) byIndex.set(part.index, part.text);
  if (byIndex.size !== total) return null;
  let text = '';
  for (let index = 1; index <= total; index++) text += byIndex.get(index);
  return text;
}
