import { committedAnswer } from './idempotency-records';

describe('committedAnswer', () => {
  it('puts the balance its charge left where the answer carries it: in data (an SMS send) or at the top (an OTP send)', () => {
    const sms = {
      status: 200,
      body: { status: 'success', data: { message_id: 'm', balance: 0 } },
      balancePath: ['data', 'balance'],
      chargeReference: 'sms-request:r',
    };
    expect(committedAnswer(sms, 9_900n)).toEqual({ status: 200, body: { status: 'success', data: { message_id: 'm', balance: 0.99 } } });
    const otp = { status: 200, body: { verification_id: 'v', cost: 0.01, balance: 0 }, balancePath: ['balance'], chargeReference: 'otp:v' };
    expect(committedAnswer(otp, 12_345_000n)).toEqual({ status: 200, body: { verification_id: 'v', cost: 0.01, balance: 1234.5 } });
  });
});
