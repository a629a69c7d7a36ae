import { CommandStatus, describeStatus, isPermanentStatus, NO_RESPONSE } from './command-status';

describe('command status', () => {
  it('treats throttling, a full queue, system and temporary errors as worth retrying', () => {
    for (const status of [CommandStatus.ESME_RTHROTTLED, CommandStatus.ESME_RMSGQFUL, CommandStatus.ESME_RSYSERR, CommandStatus.ESME_RX_T_APPN, NO_RESPONSE]) {
      expect(isPermanentStatus(status)).toBe(false);
    }
  });

  it('treats what is about the message as permanent', () => {
    for (const status of [CommandStatus.ESME_RINVDSTADR, CommandStatus.ESME_RINVMSGLEN, CommandStatus.ESME_RINVDCS, CommandStatus.ESME_RSUBMITFAIL, 0x0400]) {
      expect(isPermanentStatus(status)).toBe(true);
    }
  });

  it('names statuses', () => {
    expect(describeStatus(0x58)).toBe('ESME_RTHROTTLED (0x58)');
    expect(describeStatus(0x0401)).toBe('0x401');
  });
});
