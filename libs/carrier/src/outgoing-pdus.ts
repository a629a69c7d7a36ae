// The two PDUs the dispatcher sends for every part — submit_sm and the deliver_sm_resp of its
// receipt — encoded directly. The smpp package's generic encoder (a PDU object filled with every
// parameter's default, filtered and sized field by field) is costly at a campaign's rate
// (docs/decisions/0018-per-part-pdus-coded-directly.md). The package still runs the session and encodes everything
// else; the unit tests check these bytes against its encoder's.

const HEADER_LENGTH = 16;
const SUBMIT_SM = 0x00000004;
const DELIVER_SM_RESP = 0x80000005;
const TLV_USER_MESSAGE_REFERENCE = 0x0204;
const TLV_MESSAGE_PAYLOAD = 0x0424;

/** The submit_sm parameters the dispatcher sets, named as the smpp package names them. */
export interface SubmitSmParameters {
  source_addr_ton: number;
  source_addr_npi: number;
  source_addr: string;
  dest_addr_ton: number;
  dest_addr_npi: number;
  destination_addr: string;
  esm_class: number;
  registered_delivery: number;
  data_coding: number;
  /** Empty when the user data goes in message_payload. */
  short_message: Buffer;
  message_payload?: Buffer;
  user_message_reference: number;
}

/**
 * A PDU as the smpp package's Session.send uses one: it asks whether it is a response, sets the
 * sequence number of a request, and writes toBuffer().
 */
export class EncodedPdu {
  sequence_number = 0;

  /** `pdu` is the whole PDU with room for the header, which toBuffer fills in. */
  constructor(
    readonly command: string,
    readonly command_id: number,
    readonly command_status: number,
    private readonly pdu: Buffer,
  ) {}

  isResponse(): boolean {
    return (this.command_id & 0x80000000) !== 0;
  }

  toBuffer(): Buffer {
    this.pdu.writeUInt32BE(this.pdu.length, 0);
    this.pdu.writeUInt32BE(this.command_id >>> 0, 4);
    this.pdu.writeUInt32BE(this.command_status >>> 0, 8);
    this.pdu.writeUInt32BE(this.sequence_number >>> 0, 12);
    return this.pdu;
  }
}

/** submit_sm with the defaults of every other field (service_type, protocol_id, priority, times...: empty or 0). */
export function submitSmPdu(p: SubmitSmParameters): EncodedPdu {
  const payload = p.message_payload;
  const length =
    HEADER_LENGTH +
    1 + // service_type
    2 +
    p.source_addr.length +
    1 +
    2 +
    p.destination_addr.length +
    1 +
    3 + // esm_class, protocol_id, priority_flag
    2 + // schedule_delivery_time, validity_period
    4 + // registered_delivery, replace_if_present_flag, data_coding, sm_default_msg_id
    1 +
    p.short_message.length +
    (payload ? 4 + payload.length : 0) +
    6; // user_message_reference
  const pdu = Buffer.alloc(length);
  let at = HEADER_LENGTH + 1;
  pdu[at++] = p.source_addr_ton;
  pdu[at++] = p.source_addr_npi;
  at += pdu.write(p.source_addr, at, 'latin1') + 1;
  pdu[at++] = p.dest_addr_ton;
  pdu[at++] = p.dest_addr_npi;
  at += pdu.write(p.destination_addr, at, 'latin1') + 1;
  pdu[at++] = p.esm_class;
  at += 2 + 2; // protocol_id, priority_flag; empty schedule_delivery_time, validity_period
  pdu[at++] = p.registered_delivery;
  at += 1; // replace_if_present_flag
  pdu[at++] = p.data_coding;
  at += 1; // sm_default_msg_id
  pdu[at++] = p.short_message.length;
  at += p.short_message.copy(pdu, at);
  if (payload) {
    pdu.writeUInt16BE(TLV_MESSAGE_PAYLOAD, at);
    pdu.writeUInt16BE(payload.length, at + 2);
    at += 4 + payload.copy(pdu, at + 4);
  }
  pdu.writeUInt16BE(TLV_USER_MESSAGE_REFERENCE, at);
  pdu.writeUInt16BE(2, at + 2);
  pdu.writeUInt16BE(p.user_message_reference, at + 4);
  return new EncodedPdu('submit_sm', SUBMIT_SM, 0, pdu);
}

/** The response to a deliver_sm: an empty message_id when accepted, the header alone otherwise. */
export function deliverSmRespPdu(sequenceNumber: number, commandStatus = 0): EncodedPdu {
  const pdu = new EncodedPdu('deliver_sm_resp', DELIVER_SM_RESP, commandStatus, Buffer.alloc(commandStatus === 0 ? HEADER_LENGTH + 1 : HEADER_LENGTH));
  pdu.sequence_number = sequenceNumber;
  return pdu;
}
