import { messageFailure } from './dispatch-settle';

describe('messageFailure', () => {
  const part = (status: string, errorCode: string | null, receiptStat: string | null) => ({ status, errorCode, receiptStat });

  it('takes the first part, by index, that was not delivered and has a code', () => {
    expect(messageFailure([part('delivered', null, 'DELIVRD'), part('expired', '002', 'EXPIRED'), part('undelivered', '001', 'UNDELIV')])).toEqual({
      errorCode: '002',
      errorReason: "the carrier's receipt said EXPIRED (err:002)",
    });
  });

  it('gives a part refused at submit its code without a receipt reason (the refusal gave one)', () => {
    expect(messageFailure([part('failed', 'smpp:69', null), part('undelivered', '001', 'UNDELIV')])).toEqual({ errorCode: 'smpp:69', errorReason: null });
  });

  it("gives a receipt without an err no code, but the receipt's reason", () => {
    expect(messageFailure([part('rejected', null, 'REJECTD')])).toEqual({ errorCode: null, errorReason: "the carrier's receipt said REJECTD" });
  });

  it('gives nothing when every part was delivered', () => {
    expect(messageFailure([part('delivered', null, 'DELIVRD'), part('delivered', null, 'DELIVRD')])).toEqual({ errorCode: null, errorReason: null });
  });
});
