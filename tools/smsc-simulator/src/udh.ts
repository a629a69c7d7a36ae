// The user data header (3GPP TS 23.040 9.2.3.24) at the start of short_message when esm_class has
// the UDHI bit: a length octet, then information elements (IEI, length, data).

export interface Concatenation {
  /** 8-bit (IEI 0x00) or 16-bit (IEI 0x08) reference number. */
  reference: number;
  referenceBits: 8 | 16;
  total: number;
  /** 1-based. */
  sequence: number;
}

export interface SplitUserData {
  /** The header including its length octet (empty when there is none). */
  udh: Buffer;
  payload: Buffer;
  concatenation: Concatenation | null;
}

export const UDHI = 0x40;

/** Splits user data into header and payload; null when the header does not fit or is malformed. */
export function splitUserData(userData: Buffer, hasUdh: boolean): SplitUserData | null {
  if (!hasUdh) return { udh: Buffer.alloc(0), payload: userData, concatenation: null };
  if (userData.length < 1) return null;
  const end = 1 + userData[0];
  if (end > userData.length) return null;
  let concatenation: Concatenation | null = null;
  for (let at = 1; at < end;) {
    if (at + 2 > end) return null;
    const iei = userData[at];
    const length = userData[at + 1];
    const data = userData.subarray(at + 2, at + 2 + length);
    if (at + 2 + length > end) return null;
    if (iei === 0x00 && length === 3) concatenation = valid({ reference: data[0], referenceBits: 8, total: data[1], sequence: data[2] });
    if (iei === 0x08 && length === 4) {
      concatenation = valid({ reference: data.readUInt16BE(0), referenceBits: 16, total: data[2], sequence: data[3] });
    }
    at += 2 + length;
  }
  return { udh: userData.subarray(0, end), payload: userData.subarray(end), concatenation };
}

/** A concatenation IE with a zero count or a sequence out of range is ignored (TS 23.040). */
function valid(concatenation: Concatenation): Concatenation | null {
  const { total, sequence } = concatenation;
  return total >= 1 && sequence >= 1 && sequence <= total ? concatenation : null;
}
