import { destinationAddress, sourceAddress } from './addressing';
import { CommandStatus, describeStatus } from './command-status';
import type { SubmitSmParameters } from './outgoing-pdus';

/** Who waits for a part, most urgent first: a one-time password, a single send, a campaign's. */
export const TRAFFIC_LANES = ['urgent', 'normal', 'bulk'] as const;
export type TrafficLane = (typeof TRAFFIC_LANES)[number];

/** The lane's rank, 0 the most urgent. */
export function laneIndex(lane: TrafficLane): number {
  return TRAFFIC_LANES.indexOf(lane);
}

/** One SMS part, encoded and split by the caller. */
export interface OutgoingPart {
  /** Alphanumeric sender (up to 11 characters) or a number. */
  source: string;
  /** E.164 with '+'. */
  destination: string;
  /** 0 = GSM 03.38 default alphabet, unpacked (one septet per octet); 8 = UCS-2. */
  dataCoding: 0 | 8;
  /** The user data header (with its length octet), e.g. 05 00 03 ref total seq; null for none. */
  udh: Buffer | null;
  payload: Buffer;
  /** 0..65535, sent as user_message_reference so that a resubmission can be recognised. */
  userMessageReference: number;
  registeredDelivery: boolean;
  /** Which waiting parts go first on a bind; default 'normal'. */
  lane?: TrafficLane;
}

export type SubmitOutcome =
  | { ok: true; carrierMessageId: string }
  /** commandStatus is the SMSC's, or NO_RESPONSE (-1) when none answered. */
  | { ok: false; permanent: boolean; commandStatus: number; reason: string };

/** short_message holds at most this many octets; longer user data goes in message_payload. */
export const MAX_SHORT_MESSAGE = 254;
const MAX_MESSAGE_PAYLOAD = 65_535;
const ESM_CLASS_UDHI = 0x40;

function refuse(commandStatus: number, problem: string): { ok: false; outcome: SubmitOutcome } {
  return { ok: false, outcome: { ok: false, permanent: true, commandStatus, reason: `${problem} (not sent; ${describeStatus(commandStatus)})` } };
}

/**
 * The submit_sm parameters (as the smpp package names them) for a part, or the permanent
 * failure a part that no SMSC could accept gets without being sent.
 */
export function submitSmParameters(part: OutgoingPart): { ok: true; parameters: SubmitSmParameters } | { ok: false; outcome: SubmitOutcome } {
  const source = sourceAddress(part.source);
  if (!source) return refuse(CommandStatus.ESME_RINVSRCADR, `invalid sender ${JSON.stringify(part.source)}`);
  const destination = destinationAddress(part.destination);
  if (!destination) return refuse(CommandStatus.ESME_RINVDSTADR, `invalid destination ${JSON.stringify(part.destination)}`);
  if (part.dataCoding !== 0 && part.dataCoding !== 8) return refuse(CommandStatus.ESME_RINVDCS, `unsupported data_coding ${String(part.dataCoding)}`);
  const reference = part.userMessageReference;
  if (!Number.isInteger(reference) || reference < 0 || reference > 0xffff) {
    return refuse(CommandStatus.ESME_RINVTLVVAL, `user_message_reference ${reference} is not 0..65535`);
  }
  const userData = part.udh ? Buffer.concat([part.udh, part.payload]) : part.payload;
  if (userData.length > MAX_MESSAGE_PAYLOAD) return refuse(CommandStatus.ESME_RINVMSGLEN, `user data of ${userData.length} octets`);
  const long = userData.length > MAX_SHORT_MESSAGE;
  return {
    ok: true,
    parameters: {
      source_addr_ton: source.ton,
      source_addr_npi: source.npi,
      source_addr: source.address,
      dest_addr_ton: destination.ton,
      dest_addr_npi: destination.npi,
      destination_addr: destination.address,
      esm_class: part.udh ? ESM_CLASS_UDHI : 0,
      registered_delivery: part.registeredDelivery ? 1 : 0,
      data_coding: part.dataCoding,
      short_message: long ? Buffer.alloc(0) : userData,
      ...(long ? { message_payload: userData } : {}),
      user_message_reference: reference,
    },
  };
}
