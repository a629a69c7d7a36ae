// SMPP PDUs on the wire (SMPP 3.4/5.0): a 16-octet header (command_length, command_id,
// command_status, sequence_number) and a body. The simulator reads and writes them itself, so it
// sees submit_sm's user data as the octets that were sent (the smpp package decodes them).

export const CommandId = {
  generic_nack: 0x80000000,
  bind_receiver: 0x00000001,
  bind_receiver_resp: 0x80000001,
  bind_transmitter: 0x00000002,
  bind_transmitter_resp: 0x80000002,
  submit_sm: 0x00000004,
  submit_sm_resp: 0x80000004,
  deliver_sm: 0x00000005,
  deliver_sm_resp: 0x80000005,
  unbind: 0x00000006,
  unbind_resp: 0x80000006,
  bind_transceiver: 0x00000009,
  bind_transceiver_resp: 0x80000009,
  enquire_link: 0x00000015,
  enquire_link_resp: 0x80000015,
} as const;

export const CommandStatus = {
  ESME_ROK: 0x0000,
  ESME_RINVMSGLEN: 0x0001,
  ESME_RINVCMDLEN: 0x0002,
  ESME_RINVCMDID: 0x0003,
  ESME_RINVBNDSTS: 0x0004,
  ESME_RALYBND: 0x0005,
  ESME_RBINDFAIL: 0x000d,
  ESME_RSYSERR: 0x0008,
  ESME_RINVDSTADR: 0x000b,
  ESME_RINVPASWD: 0x000e,
  ESME_RINVSYSID: 0x000f,
  ESME_RSUBMITFAIL: 0x0045,
  ESME_RTHROTTLED: 0x0058,
  ESME_RINVDCS: 0x0104,
} as const;

export const Tlv = {
  receipted_message_id: 0x001e,
  user_message_reference: 0x0204,
  sar_msg_ref_num: 0x020c,
  sar_total_segments: 0x020e,
  sar_segment_seqnum: 0x020f,
  message_payload: 0x0424,
  message_state: 0x0427,
} as const;

export const HEADER_LENGTH = 16;
/** Larger PDUs are refused (a message_payload of 64 KiB fits). */
export const MAX_PDU_LENGTH = 70_000;

export interface Pdu {
  commandId: number;
  status: number;
  sequence: number;
  body: Buffer;
}

export class PduError extends Error {
  constructor(
    message: string,
    readonly status: number = CommandStatus.ESME_RINVCMDLEN,
  ) {
    super(message);
    this.name = 'PduError';
  }
}

export function isResponse(commandId: number): boolean {
  return (commandId & 0x80000000) !== 0;
}

/** Cuts a byte stream into PDUs. */
export class PduFramer {
  private buffered: Buffer = Buffer.alloc(0);

  /** The complete PDUs so far; throws PduError on a command_length no PDU can have. */
  push(chunk: Buffer): Pdu[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const pdus: Pdu[] = [];
    while (this.buffered.length >= 4) {
      const length = this.buffered.readUInt32BE(0);
      if (length < HEADER_LENGTH || length > MAX_PDU_LENGTH) throw new PduError(`command_length ${length} is out of range`);
      if (this.buffered.length < length) break;
      const pdu = this.buffered.subarray(0, length);
      this.buffered = this.buffered.subarray(length);
      pdus.push({ commandId: pdu.readUInt32BE(4), status: pdu.readUInt32BE(8), sequence: pdu.readUInt32BE(12), body: pdu.subarray(16) });
    }
    return pdus;
  }
}

export function encodePdu(commandId: number, status: number, sequence: number, body?: Buffer): Buffer {
  const length = HEADER_LENGTH + (body?.length ?? 0);
  const pdu = Buffer.allocUnsafe(length);
  pdu.writeUInt32BE(length, 0);
  pdu.writeUInt32BE(commandId >>> 0, 4);
  pdu.writeUInt32BE(status >>> 0, 8);
  pdu.writeUInt32BE(sequence >>> 0, 12);
  body?.copy(pdu, HEADER_LENGTH);
  return pdu;
}

/** Reads a PDU body field by field; throws PduError when a field runs past the end. */
export class BodyReader {
  private at = 0;

  constructor(private readonly body: Buffer) {}

  get remaining(): number {
    return this.body.length - this.at;
  }

  u8(): number {
    if (this.at >= this.body.length) throw new PduError('the PDU body is truncated', CommandStatus.ESME_RINVMSGLEN);
    return this.body[this.at++];
  }

  /** A C-octet string: ASCII up to a NUL. */
  cstring(): string {
    const end = this.body.indexOf(0, this.at);
    if (end < 0) throw new PduError('a C-octet string has no terminating NUL', CommandStatus.ESME_RINVMSGLEN);
    const value = this.body.toString('latin1', this.at, end);
    this.at = end + 1;
    return value;
  }

  bytes(length: number): Buffer {
    if (this.at + length > this.body.length) throw new PduError('the PDU body is truncated', CommandStatus.ESME_RINVMSGLEN);
    const value = this.body.subarray(this.at, this.at + length);
    this.at += length;
    return value;
  }

  /** The optional parameters (TLVs) that follow the mandatory ones; the last of a tag wins. */
  tlvs(): Map<number, Buffer> {
    const tlvs = new Map<number, Buffer>();
    while (this.remaining > 0) {
      const header = this.bytes(4);
      tlvs.set(header.readUInt16BE(0), this.bytes(header.readUInt16BE(2)));
    }
    return tlvs;
  }
}

/** Builds a PDU body in one buffer, grown as needed (a PDU is a few hundred octets). */
export class BodyWriter {
  private buffer = Buffer.allocUnsafe(256);
  private length = 0;

  u8(value: number): this {
    this.reserve(1);
    this.buffer[this.length++] = value & 0xff;
    return this;
  }

  cstring(value: string): this {
    this.reserve(value.length + 1);
    this.length += this.buffer.write(value, this.length, 'latin1');
    this.buffer[this.length++] = 0;
    return this;
  }

  bytes(value: Uint8Array): this {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
    return this;
  }

  tlv(tag: number, value: Uint8Array): this {
    this.reserve(4);
    this.buffer.writeUInt16BE(tag, this.length);
    this.buffer.writeUInt16BE(value.length, this.length + 2);
    this.length += 4;
    return this.bytes(value);
  }

  toBuffer(): Buffer {
    return this.buffer.subarray(0, this.length);
  }

  private reserve(octets: number): void {
    if (this.length + octets <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buffer.length * 2, this.length + octets));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
}
