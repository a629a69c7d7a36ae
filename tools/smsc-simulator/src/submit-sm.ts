// The bodies of the PDUs the simulator reads (bind_*, submit_sm) and the receipt it writes
// (deliver_sm), field by field as SMPP 3.4 section 4 lists them.
import { BodyReader, BodyWriter, CommandStatus, PduError, Tlv } from './pdu';

export interface BindRequest {
  systemId: string;
  password: string;
  systemType: string;
}

export function parseBind(body: Buffer): BindRequest {
  const reader = new BodyReader(body);
  return { systemId: reader.cstring(), password: reader.cstring(), systemType: reader.cstring() };
}

export interface SubmitSm {
  serviceType: string;
  sourceTon: number;
  sourceNpi: number;
  source: string;
  destinationTon: number;
  destinationNpi: number;
  destination: string;
  esmClass: number;
  registeredDelivery: number;
  dataCoding: number;
  /** short_message, or the message_payload TLV when short_message is empty: UDH (if any) + payload. */
  userData: Buffer;
  userMessageReference: number | null;
  /** The SAR TLVs, an alternative to a concatenation UDH. */
  sar: { reference: number; total: number; sequence: number } | null;
}

export function parseSubmitSm(body: Buffer): SubmitSm {
  const reader = new BodyReader(body);
  const serviceType = reader.cstring();
  const sourceTon = reader.u8();
  const sourceNpi = reader.u8();
  const source = reader.cstring();
  const destinationTon = reader.u8();
  const destinationNpi = reader.u8();
  const destination = reader.cstring();
  const esmClass = reader.u8();
  reader.u8(); // protocol_id
  reader.u8(); // priority_flag
  reader.cstring(); // schedule_delivery_time
  reader.cstring(); // validity_period
  const registeredDelivery = reader.u8();
  reader.u8(); // replace_if_present_flag
  const dataCoding = reader.u8();
  reader.u8(); // sm_default_msg_id
  const shortMessage = reader.bytes(reader.u8());
  const tlvs = reader.tlvs();
  const payload = tlvs.get(Tlv.message_payload);
  if (payload && shortMessage.length > 0) {
    throw new PduError('short_message and message_payload are both set', CommandStatus.ESME_RINVMSGLEN);
  }
  const reference = tlvs.get(Tlv.user_message_reference);
  return {
    serviceType,
    sourceTon,
    sourceNpi,
    source,
    destinationTon,
    destinationNpi,
    destination,
    esmClass,
    registeredDelivery,
    dataCoding,
    userData: payload ?? shortMessage,
    userMessageReference: reference?.length === 2 ? reference.readUInt16BE(0) : null,
    sar: readSar(tlvs),
  };
}

function readSar(tlvs: Map<number, Buffer>): SubmitSm['sar'] {
  const reference = tlvs.get(Tlv.sar_msg_ref_num);
  const total = tlvs.get(Tlv.sar_total_segments);
  const sequence = tlvs.get(Tlv.sar_segment_seqnum);
  if (reference?.length !== 2 || total?.length !== 1 || sequence?.length !== 1) return null;
  return { reference: reference.readUInt16BE(0), total: total[0], sequence: sequence[0] };
}

export interface ReceiptPdu {
  /** The handset the message went to (the receipt's source). */
  source: string;
  sourceTon: number;
  /** The original sender (the receipt's destination). */
  destination: string;
  destinationTon: number;
  /** The receipt text, GSM-encoded (data_coding 0). */
  text: Buffer;
  receiptedMessageId: string;
  messageState: number;
}

/** A deliver_sm body carrying a delivery receipt: esm_class 0x04, receipted_message_id and message_state. */
export function deliverReceiptBody(receipt: ReceiptPdu): Buffer {
  return new BodyWriter()
    .cstring('') // service_type
    .u8(receipt.sourceTon)
    .u8(receipt.sourceTon === 1 ? 1 : 0)
    .cstring(receipt.source)
    .u8(receipt.destinationTon)
    .u8(receipt.destinationTon === 1 ? 1 : 0)
    .cstring(receipt.destination)
    .u8(0x04) // esm_class: MC delivery receipt
    .u8(0) // protocol_id
    .u8(0) // priority_flag
    .cstring('') // schedule_delivery_time
    .cstring('') // validity_period
    .u8(0) // registered_delivery
    .u8(0) // replace_if_present_flag
    .u8(0) // data_coding
    .u8(0) // sm_default_msg_id
    .u8(receipt.text.length)
    .bytes(receipt.text)
    .tlv(Tlv.receipted_message_id, Buffer.from(`${receipt.receiptedMessageId}\0`, 'latin1'))
    .tlv(Tlv.message_state, Buffer.from([receipt.messageState]))
    .toBuffer();
}
