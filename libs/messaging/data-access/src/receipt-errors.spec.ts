import { NO_RECEIPT, receiptErrorCode, receiptErrorReason } from './receipt-errors';

describe('receipt errors', () => {
  it("keeps the carrier's err as the code, and none for an empty one", () => {
    expect(receiptErrorCode('001')).toBe('001');
    expect(receiptErrorCode('000')).toBe('000');
    expect(receiptErrorCode('')).toBeNull();
  });

  it('says which receipt ended the part, or that none came', () => {
    expect(receiptErrorReason('UNDELIV', '001')).toBe("the carrier's receipt said UNDELIV (err:001)");
    expect(receiptErrorReason('REJECTD', '')).toBe("the carrier's receipt said REJECTD");
    expect(receiptErrorReason('EXPIRED', NO_RECEIPT)).toBe('no delivery receipt within the receipt timeout');
  });
});
