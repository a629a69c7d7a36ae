/** SMPP command_status values (SMPP 5.0 section 4.7.6) that this library names. */
export const CommandStatus = {
  ESME_ROK: 0x0000,
  ESME_RINVMSGLEN: 0x0001,
  ESME_RINVCMDLEN: 0x0002,
  ESME_RINVCMDID: 0x0003,
  ESME_RINVBNDSTS: 0x0004,
  ESME_RALYBND: 0x0005,
  ESME_RSYSERR: 0x0008,
  ESME_RINVSRCADR: 0x000a,
  ESME_RINVDSTADR: 0x000b,
  ESME_RBINDFAIL: 0x000d,
  ESME_RINVPASWD: 0x000e,
  ESME_RINVSYSID: 0x000f,
  ESME_RMSGQFUL: 0x0014,
  ESME_RSUBMITFAIL: 0x0045,
  ESME_RTHROTTLED: 0x0058,
  ESME_RX_T_APPN: 0x0064,
  ESME_RX_P_APPN: 0x0065,
  ESME_RX_R_APPN: 0x0066,
  ESME_RINVTLVVAL: 0x00c4,
  ESME_RINVDCS: 0x0104,
} as const;

/**
 * The commandStatus of a failure that no SMSC answered: not bound in time, no response within
 * responseTimeoutMs, the connection lost or closed while waiting. Never permanent.
 */
export const NO_RESPONSE = -1;

/**
 * Statuses worth retrying later: the SMSC is busy or had a passing problem (throttling, queue
 * full, system error, temporary application error) or the bind was not ready. Anything else is
 * about the message itself (address, data, parameters) and fails the same way when retried.
 */
const TEMPORARY = new Set<number>([
  CommandStatus.ESME_RINVBNDSTS,
  CommandStatus.ESME_RSYSERR,
  CommandStatus.ESME_RMSGQFUL,
  CommandStatus.ESME_RTHROTTLED,
  CommandStatus.ESME_RX_T_APPN,
]);

export function isPermanentStatus(status: number): boolean {
  return status !== NO_RESPONSE && status !== CommandStatus.ESME_ROK && !TEMPORARY.has(status);
}

const NAMES = new Map<number, string>(Object.entries(CommandStatus).map(([name, value]) => [value, name]));

/** `ESME_RTHROTTLED (0x58)`, or the hex value of a status without a name here. */
export function describeStatus(status: number): string {
  const hex = `0x${status.toString(16).padStart(2, '0')}`;
  return NAMES.has(status) ? `${NAMES.get(status)} (${hex})` : hex;
}
