// A message the simulated handset sends to the platform (POST /mo): deliver_sm PDUs that are not
// receipts (esm_class 0), split as a phone splits a long text, with a concatenation UDH or SAR TLVs.
import { encodeSmsParts, splitSms } from '@mp/messaging-domain';
import { BodyWriter, Tlv } from './pdu';

export type Concatenation = 'udh' | 'sar';

export interface MobileOriginated {
  /** The handset, E.164 with '+'. */
  from: string;
  /** The platform's number (or short code) it writes to. */
  to: string;
  text: string;
  concat: Concatenation;
  /**
   * The destination's TON as the SMSC writes it; absent: international (1) for a number of more
   * than six characters, unknown (0) for a short code. Any other TON sends its digits without
   * '+', as an SMSC that does not say international does (0 unknown, 2 national, 3 network specific).
   */
  toTon?: number;
}

/** One deliver_sm to send, and the id the simulator gave it (for the API's answer). */
export interface MobileOriginatedPart {
  messageId: string;
  body: Buffer;
}

/** esm_class bit: short_message starts with a user data header. */
const UDH_INDICATOR = 0x40;

/** The deliver_sm bodies of a text: one per part (GSM-7 153 septets / UCS-2 67 units each when several). */
export function mobileOriginatedBodies(mo: MobileOriginated, reference: number, nextId: () => string): MobileOriginatedPart[] {
  const parts = encodeSmsParts(splitSms(mo.text), reference & 0xff);
  return parts.map((part) => {
    const udh = mo.concat === 'udh' ? part.udh : null;
    const userData = udh ? Buffer.concat([udh, part.payload]) : part.payload;
    const writer = new BodyWriter()
      .cstring('') // service_type
      .u8(1) // source TON: international
      .u8(1)
      .cstring(mo.from.replace(/^\+/, ''))
      .u8(mo.toTon ?? (/^\+?[0-9]+$/.test(mo.to) && mo.to.length > 6 ? 1 : 0))
      .u8(1)
      .cstring(mo.to.replace(/^\+/, ''))
      .u8(udh ? UDH_INDICATOR : 0) // esm_class: a message, not a receipt
      .u8(0) // protocol_id
      .u8(0) // priority_flag
      .cstring('') // schedule_delivery_time
      .cstring('') // validity_period
      .u8(0) // registered_delivery
      .u8(0) // replace_if_present_flag
      .u8(part.dataCoding)
      .u8(0); // sm_default_msg_id
    if (userData.length <= 254) writer.u8(userData.length).bytes(userData);
    else writer.u8(0).tlv(Tlv.message_payload, userData);
    if (mo.concat === 'sar' && part.total > 1) {
      const ref = Buffer.alloc(2);
      ref.writeUInt16BE(reference & 0xffff);
      writer
        .tlv(Tlv.sar_msg_ref_num, ref)
        .tlv(Tlv.sar_total_segments, Buffer.from([part.total]))
        .tlv(Tlv.sar_segment_seqnum, Buffer.from([part.index]));
    }
    return { messageId: nextId(), body: writer.toBuffer() };
  });
}
