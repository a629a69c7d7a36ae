// The two PDUs the dispatcher receives for every part — the submit_sm_resp of its submit_sm and
// the deliver_sm of its receipt — decoded directly. The smpp package's generic decoder (a PDU
// built field by field through its type table, then every field filtered) is costly at a
// campaign's rate (docs/decisions/0018-per-part-pdus-coded-directly.md). Only the usual shapes take this path: a
// submit_sm_resp with nothing after its message_id, and a deliver_sm in the default alphabet
// without a user data header or times, whose only TLVs are receipted_message_id and
// message_state. Anything else goes to the package's decoder, and the unit tests check that both
// give the same PDU.
import { encodings, PDU } from 'smpp';

const HEADER_LENGTH = 16;
const SUBMIT_SM_RESP = 0x80000004;
const DELIVER_SM = 0x00000005;
const TLV_RECEIPTED_MESSAGE_ID = 0x001e;
const TLV_MESSAGE_STATE = 0x0427;
/** esm_class bit of a user data header (the package reads it to split short_message). */
const UDH_INDICATOR = 0x40;

/** Decodes one whole PDU, header included, as `new PDU(pdu)` of the smpp package does. */
export function decodePdu(pdu: Buffer): PDU {
  return decodeDirectly(pdu) ?? new PDU(pdu);
}

/** The PDU when it has one of the usual shapes this module decodes itself; undefined otherwise. */
export function decodeDirectly(pdu: Buffer): PDU | undefined {
  const commandId = pdu.readUInt32BE(4);
  if (commandId === SUBMIT_SM_RESP) return submitSmResp(pdu);
  return commandId === DELIVER_SM ? deliverSm(pdu) : undefined;
}

/**
 * A PDU object as the package's decoder makes one: its prototype, the header, then `fields`. Made
 * by a constructor, so every PDU of a kind shares one hidden class with its fields in the object:
 * `Object.create(PDU.prototype)` followed by `Object.assign` makes a dictionary-mode object,
 * several times larger and slower to make and read (docs/decisions/0018-per-part-pdus-coded-directly.md).
 */
const DecodedPdu = function (this: Record<string, unknown>, pdu: Buffer, command: string, fields: Record<string, unknown>) {
  this['command_length'] = pdu.readUInt32BE(0);
  this['command_id'] = pdu.readUInt32BE(4);
  this['command_status'] = pdu.readUInt32BE(8);
  this['sequence_number'] = pdu.readUInt32BE(12);
  this['command'] = command;
  for (const name in fields) this[name] = fields[name];
} as unknown as new (pdu: Buffer, command: string, fields: Record<string, unknown>) => PDU;
DecodedPdu.prototype = PDU.prototype;

function pduOf(pdu: Buffer, command: string, fields: Record<string, unknown>): PDU {
  return new DecodedPdu(pdu, command, fields);
}

function submitSmResp(pdu: Buffer): PDU | undefined {
  if (pdu.length === HEADER_LENGTH) return pduOf(pdu, 'submit_sm_resp', {});
  const end = pdu.indexOf(0, HEADER_LENGTH);
  // Nothing may follow message_id: a TLV there (SMPP 5.0) is the package's to read.
  if (end !== pdu.length - 1) return undefined;
  return pduOf(pdu, 'submit_sm_resp', { message_id: pdu.toString('ascii', HEADER_LENGTH, end) });
}

/** Reads the fields of a PDU body in order, and says when one would run past its end. */
class BodyCursor {
  at = HEADER_LENGTH;
  overrun = false;

  constructor(private readonly pdu: Buffer) {}

  u8(): number {
    if (this.at >= this.pdu.length) {
      this.overrun = true;
      return 0;
    }
    return this.pdu[this.at++];
  }

  cstring(): string {
    const end = this.pdu.indexOf(0, this.at);
    if (end < 0) {
      this.overrun = true;
      return '';
    }
    const text = this.pdu.toString('ascii', this.at, end);
    this.at = end + 1;
    return text;
  }
}

function deliverSm(pdu: Buffer): PDU | undefined {
  if (pdu.readUInt32BE(8) !== 0) return undefined;
  const body = new BodyCursor(pdu);
  const fields: Record<string, unknown> = {
    service_type: body.cstring(),
    source_addr_ton: body.u8(),
    source_addr_npi: body.u8(),
    source_addr: body.cstring(),
    dest_addr_ton: body.u8(),
    dest_addr_npi: body.u8(),
    destination_addr: body.cstring(),
    esm_class: body.u8(),
    protocol_id: body.u8(),
    priority_flag: body.u8(),
    schedule_delivery_time: body.cstring(),
    validity_period: body.cstring(),
    registered_delivery: body.u8(),
    replace_if_present_flag: body.u8(),
    data_coding: body.u8(),
    sm_default_msg_id: body.u8(),
  };
  const smLength = body.u8();
  if (body.overrun || body.at + smLength > pdu.length) return undefined;
  if ((fields['esm_class'] as number) & UDH_INDICATOR || ((fields['data_coding'] as number) & 0x0f) !== 0 || encodings.default !== 'ASCII') return undefined;
  if (fields['schedule_delivery_time'] !== '' || fields['validity_period'] !== '') return undefined;
  fields['short_message'] = { message: encodings.ASCII.decode(pdu.subarray(body.at, body.at + smLength)) };
  return readReceiptTlvs(pdu, body.at + smLength, fields) ? pduOf(pdu, 'deliver_sm', fields) : undefined;
}

/** Reads receipted_message_id and message_state into `fields`; false when another TLV (or a broken one) is there. */
function readReceiptTlvs(pdu: Buffer, from: number, fields: Record<string, unknown>): boolean {
  let at = from;
  while (at + 4 <= pdu.length) {
    const tag = pdu.readUInt16BE(at);
    const length = pdu.readUInt16BE(at + 2);
    at += 4;
    if (at + length > pdu.length) return false;
    if (tag === TLV_RECEIPTED_MESSAGE_ID) {
      // The package reads this C-string up to its NUL, whatever the TLV's length says.
      const end = pdu.indexOf(0, at);
      if (end < 0 || end >= at + length) return false;
      fields['receipted_message_id'] = pdu.toString('ascii', at, end);
    } else if (tag === TLV_MESSAGE_STATE && length === 1) {
      fields['message_state'] = pdu[at];
    } else {
      return false;
    }
    at += length;
  }
  return at === pdu.length;
}
