// A deliver_sm that is not a receipt: a message a handset sent to one of the platform's numbers.
// Read from the PDU's own octets (the smpp package would decode short_message to a string in its
// own way, and the UDH and the alphabet are the messaging domain's to read).
import type { PDU } from 'smpp';

/** The fields of a mobile-originated deliver_sm the platform keeps. */
export interface MobileOriginatedPdu {
  /** The handset: E.164 with '+' when its TON is international, else as sent. */
  source: string;
  /** The platform's number it was sent to, the same way. */
  destination: string;
  esmClass: number;
  dataCoding: number;
  /** short_message, or message_payload when short_message is empty: the UDH first when esm_class says so. */
  userData: Buffer;
  sar: { reference: number; total: number; sequence: number } | null;
}

const HEADER_LENGTH = 16;
const TON_INTERNATIONAL = 1;
const TLV_SAR_MSG_REF_NUM = 0x020c;
const TLV_SAR_TOTAL_SEGMENTS = 0x020e;
const TLV_SAR_SEGMENT_SEQNUM = 0x020f;
const TLV_MESSAGE_PAYLOAD = 0x0424;

/** The octets of each deliver_sm decoded (pdu-reader), for the few that are not receipts. */
const octetsOfPdu = new WeakMap<PDU, Buffer>();

export function rememberOctets(pdu: PDU, octets: Buffer): void {
  octetsOfPdu.set(pdu, octets);
}

/** The mobile-originated message a deliver_sm carries; null when its octets are not there or are malformed. */
export function mobileOriginatedOf(pdu: PDU): MobileOriginatedPdu | null {
  const octets = octetsOfPdu.get(pdu);
  return octets ? readMobileOriginated(octets) : null;
}

/** Reads a whole deliver_sm PDU (header included); null when a field runs past its end. */
export function readMobileOriginated(pdu: Buffer): MobileOriginatedPdu | null {
  let at = HEADER_LENGTH;
  const u8 = (): number => (at < pdu.length ? pdu[at++] : Number.NaN);
  const cstring = (): string | null => {
    const end = pdu.indexOf(0, at);
    if (end < 0) return null;
    const value = pdu.toString('latin1', at, end);
    at = end + 1;
    return value;
  };
  cstring(); // service_type
  const sourceTon = u8();
  u8();
  const source = cstring();
  const destinationTon = u8();
  u8();
  const destination = cstring();
  const esmClass = u8();
  u8(); // protocol_id
  u8(); // priority_flag
  if (cstring() === null || cstring() === null) return null; // schedule_delivery_time, validity_period
  u8(); // registered_delivery
  u8(); // replace_if_present_flag
  const dataCoding = u8();
  u8(); // sm_default_msg_id
  const length = u8();
  if (source === null || destination === null || Number.isNaN(length) || at + length > pdu.length) return null;
  const shortMessage = pdu.subarray(at, at + length);
  const tlvs = readTlvs(pdu, at + length);
  if (!tlvs) return null;
  return {
    source: address(source, sourceTon),
    destination: address(destination, destinationTon),
    esmClass,
    dataCoding,
    userData: shortMessage.length > 0 ? shortMessage : (tlvs.get(TLV_MESSAGE_PAYLOAD) ?? shortMessage),
    sar: readSar(tlvs),
  };
}

function readTlvs(pdu: Buffer, from: number): Map<number, Buffer> | null {
  const tlvs = new Map<number, Buffer>();
  let at = from;
  while (at + 4 <= pdu.length) {
    const length = pdu.readUInt16BE(at + 2);
    if (at + 4 + length > pdu.length) return null;
    tlvs.set(pdu.readUInt16BE(at), pdu.subarray(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return at === pdu.length ? tlvs : null;
}

function readSar(tlvs: Map<number, Buffer>): MobileOriginatedPdu['sar'] {
  const reference = tlvs.get(TLV_SAR_MSG_REF_NUM);
  const total = tlvs.get(TLV_SAR_TOTAL_SEGMENTS);
  const sequence = tlvs.get(TLV_SAR_SEGMENT_SEQNUM);
  if (reference?.length !== 2 || total?.length !== 1 || sequence?.length !== 1) return null;
  return { reference: reference.readUInt16BE(0), total: total[0], sequence: sequence[0] };
}

function address(value: string, ton: number): string {
  return ton === TON_INTERNATIONAL && /^\+?[0-9]{1,15}$/.test(value) ? `+${value.replace(/^\+/, '')}` : value;
}
