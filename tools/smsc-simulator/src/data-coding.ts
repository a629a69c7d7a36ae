import { decodeGsm } from './gsm';

/** The data_coding values the simulator accepts in submit_sm. */
export const DataCoding = {
  /** GSM 03.38 default alphabet, unpacked. */
  GSM: 0x00,
  /** IA5 (ASCII). */
  IA5: 0x01,
  LATIN1: 0x03,
  /** UCS-2, big-endian (UTF-16BE: a surrogate pair shows as its character). */
  UCS2: 0x08,
} as const;

export function isSupportedDataCoding(dataCoding: number): boolean {
  return (Object.values(DataCoding) as number[]).includes(dataCoding);
}

/** The text of a short message's octets (without UDH), as the handset shows it. */
export function decodeText(dataCoding: number, octets: Buffer): string {
  switch (dataCoding) {
    case DataCoding.GSM:
      return decodeGsm(octets);
    case DataCoding.IA5:
      return octets.toString('ascii');
    case DataCoding.LATIN1:
      return octets.toString('latin1');
    case DataCoding.UCS2: {
      const even = Buffer.from(octets.subarray(0, octets.length - (octets.length % 2)));
      return even.swap16().toString('utf16le');
    }
    default:
      throw new Error(`data_coding ${dataCoding} is not supported`);
  }
}
